import type { AgentKind } from '../../../contract/api.js';

/** One model response as a transcript tells it: what the analytics count, once. */
export interface ResponseUsage {
  /**
   * What identifies the response across lines and files (Claude: message id + request id; Codex:
   * the response id), or null when the transcript does not say: then it is never deduplicated.
   */
  key: string | null;
  model: string;
  startedAtMs: number;
  endedAtMs: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheCreation: number;
  /** Part of cacheCreation written to the 1-hour cache. */
  cacheCreation1h: number;
  /** Of the output, the reasoning tokens; null when the transcript does not report them (Claude). */
  reasoning: number | null;
  tools: { id: string; name: string }[];
}

/** What one transcript line says about its conversation; every field is optional. */
export interface LineFacts {
  /** The agent's own id of the conversation the line belongs to. */
  conversationId?: string;
  atMs?: number;
  cwd?: string;
  model?: string;
  /** A person's prompt (the first one names the conversation). */
  prompt?: string;
  /** The transcript's own title for the conversation (wins over the first prompt). */
  title?: string;
  /** Responses this line closed. */
  responses?: ResponseUsage[];
}

/** Reads one file's lines in order; its state survives between reads (and restarts, as JSON). */
export interface TranscriptParser {
  line(value: unknown): LineFacts;
  /** Responses still open at the end of what was read (the file is quiet: they are complete). */
  drain(): ResponseUsage[];
  /** Whether a response is open (its next line may still come). */
  hasOpen(): boolean;
  /** What the next read of this file needs to continue, as plain JSON. */
  state(): unknown;
}

/**
 * One agent's transcripts: where they are and how a line reads. Adding an agent is one file that
 * implements this, listed in transcript-readers.ts.
 */
export interface TranscriptReader {
  readonly agent: AgentKind;
  /** The folders holding the transcripts of a subscription, by its configuration folder. */
  roots(configDir: string): string[];
  /** Whether a file under a root is a transcript. */
  accepts(path: string): boolean;
  /**
   * The agent's id of the conversation a file belongs to, from its path (a subagent's transcript
   * names its parent), or null when only its lines tell.
   */
  conversationOf(path: string): string | null;
  /** A parser for one file, continuing from a saved state (null: from the start). */
  parser(state: unknown): TranscriptParser;
}

/** The decoders' own readings of a JSON value's shape, for the fields a parser keeps to itself. */
export { finite, obj, str, type Json } from '../../../contract/formats/decoded.js';

/** A line's ISO time as epoch ms, or undefined. */
export function timeOf(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : undefined;
}
