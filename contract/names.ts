/** The one rule for every name a person reads (apps, subscriptions, models, rule ids). Pure zod. */
import * as z from 'zod';

/**
 * Characters a name must not hold: C0 and C1 controls and DEL (NUL among them), lone UTF-16
 * surrogates, line and paragraph separators, and the bidirectional marks, embeddings, overrides
 * and isolates that make a name read differently from what it is.
 */
const HIDDEN = /[\p{Cc}\p{Cs}\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;

const codePoint = (char: string): string =>
  `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** Describes the first character a name may not hold ("U+0000 at position 3"), or null. */
export function hiddenCharacter(text: string): string | null {
  const match = HIDDEN.exec(text);
  return match ? `${codePoint(match[0])} at position ${match.index}` : null;
}

/** A trimmed, non-empty name of at most `max` characters with no hidden character. */
export const humanName = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .superRefine((value, context) => {
      const found = hiddenCharacter(value);
      if (found)
        context.addIssue({
          code: 'custom',
          message: `must not contain control, surrogate or text-direction characters (${found})`,
        });
    });

/**
 * A model's name as the agents and the model APIs spell them (`claude-sonnet-4-5`,
 * `claude-opus-4-1[1m]`, `gpt-5.1-codex`, `vendor/model:tag`): what an imported transcript or an
 * agent's output may name; anything else is recorded as `unknown`.
 */
export const isModelName = (name: string): boolean =>
  /^[A-Za-z0-9][A-Za-z0-9._:@/[\]-]{0,127}$/.test(name);

/** A tool's name as agents report them (`Bash`, `mcp__server__tool`, `apply_patch`, `web.run`). */
export const isToolName = (name: string): boolean =>
  /^[A-Za-z0-9_][A-Za-z0-9_.:/-]{0,127}$/.test(name);

/**
 * An agent's own conversation id: Claude Code's session ids and Codex's thread ids are both UUIDs
 * (8-4-4-4-12 hex digits; Codex uses version 7). Nothing else reaches `--resume=` or `thread/resume`.
 */
export const isConversationId = (id: string): boolean =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);
