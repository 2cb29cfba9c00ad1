import type { AgentKind } from '../api.js';

/**
 * What one line of an agent's format says, in words every reader shares: the daemon (outline,
 * usage, quotas), the terminal, the console and the first paint. A line reads as zero or more items; a
 * line that says nothing any reader shows reads as one `other`. Decoders are pure and never throw.
 */
export type DecodedItem =
  /** A person's prompt; `steer` when it joins a turn already running instead of starting one. */
  | { kind: 'user'; text: string; steer: boolean }
  /**
   * The agent's text. `id` names a message that streams (Codex): deltas grow it until its final
   * text comes. `sub`: written by a sub-agent.
   */
  | { kind: 'text'; text: string; sub: boolean; id: string | null; final: boolean }
  | { kind: 'text_delta'; id: string; text: string }
  | { kind: 'thinking'; text: string; sub: boolean }
  /** A tool call; `id` null when the line gives none (a reader may use its event's seq). */
  | { kind: 'tool_call'; id: string | null; name: string; input: Json; sub: boolean }
  /**
   * A tool's result. `call` repeats what was called when the format says it again (Codex's
   * item/completed), for a reader that did not see the call; `detail` is the format's own
   * structured result (Claude's tool_use_result), read by whoever knows that tool.
   */
  | {
      kind: 'tool_result';
      id: string | null;
      output: string;
      isError: boolean;
      sub: boolean;
      call: { name: string; input: Json } | null;
      detail: unknown;
    }
  /**
   * The turn ended; `text` is the agent's own word on a failure, when it gives one; `isError`: the
   * agent marked it as one (an interrupted turn may be either). `tokens`: the
   * whole turn's, when the format counts them there (Claude). `reason` and `category` name how it
   * ended in the format's own words (Claude's terminal_reason and subtype); `errors`, its list of them
   * when it gives one.
   */
  | {
      kind: 'turn_end';
      outcome: 'finished' | 'failed' | 'interrupted';
      isError: boolean;
      durationMs: number | null;
      costUsd: number | null;
      text: string | null;
      tokens: Tokens | null;
      reason: string | null;
      category: string | null;
      errors: string[] | null;
    }
  /**
   * One call to the model, for counting: Claude's assistant line (its blocks' lines repeat the
   * message's `id` and its usage so far, as `tokens`), Codex's token report (with its `tokens`). `error`: the model was not reached
   * (Claude writes a synthetic message then), in the format's word for why.
   */
  | {
      kind: 'model_call';
      id: string | null;
      model: string | null;
      sub: boolean;
      error: string | null;
      tokens: Tokens | null;
    }
  /** The model the session talks to from now on (Codex's thread/started). */
  | { kind: 'model'; model: string }
  /** How the agent says a tool call was let through (Claude's tool_result_meta), in its words. */
  | { kind: 'tool_permission'; id: string; source: string }
  /** A reading of a usage quota's window: percent used (may pass 100), when it resets. */
  | { kind: 'quota'; window: string; percent: number; resetsAtMs: number | null }
  /** The session's context (model, cwd, tools): the line itself holds the details. */
  | { kind: 'init' }
  | { kind: 'error'; text: string | null }
  | { kind: 'other' };

/** Token counts; `input` excludes what was read from the cache. Finite, possibly negative when a line lies. */
export interface Tokens {
  input: number;
  output: number;
  cacheRead: number;
  cacheCreation: number;
  /** Of cacheCreation, what is kept an hour (priced higher); 0 when the format does not say. */
  cacheCreation1h: number;
  /** Of output, the reasoning tokens; null when the format does not report them. */
  reasoning: number | null;
}

/** Who wrote a stored line: the agent, Relais on the person's behalf (`host`), or Relais itself. */
export type LineSource = 'agent' | 'host' | 'relais' | (string & {});

/** One agent format's reader: pure, total (never throws), no I/O. */
export type Decoder = (line: unknown, source: LineSource) => DecodedItem[];

export type { AgentKind };

export type Json = Record<string, unknown>;

export const OTHER: readonly DecodedItem[] = Object.freeze([{ kind: 'other' } as const]);
export const other = (): DecodedItem[] => OTHER as DecodedItem[];

/** A plain object (not an array, not null), or null. */
export const obj = (value: unknown): Json | null =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null;
export const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
export const arr = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
export const finite = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;
/** A count as the line gives it, 0 when it gives none: bounding it is the recorder's business. */
export const tally = (value: unknown): number => finite(value) ?? 0;

/** JSON of a parsed value; a value JSON cannot hold (none comes from a parsed line) reads as ''. */
export function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}
