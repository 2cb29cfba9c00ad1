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
