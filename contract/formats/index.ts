import { decodeClaude } from './claude-lines.js';
import { decodeCodex } from './codex-lines.js';
import { other, type AgentKind, type Decoder } from './decoded.js';

export { isTranscriptPrompt } from './claude-lines.js';
/** A Codex rollout's line, for a reader that knows it holds one (the history import of rollout files). */
export { decodeRollout } from './codex-rollout.js';
export type { DecodedItem, Decoder, LineSource, Tokens } from './decoded.js';

/**
 * Each agent's format, by the session's agent: a reader never guesses it from a line's shape.
 * Adding an agent is one module here and one line below.
 */
const DECODERS: Record<AgentKind, Decoder> = { claude: decodeClaude, codex: decodeCodex };

/** The decoder of an agent; an agent this build does not know reads every line as `other`. */
export function decoderFor(agent: unknown): Decoder {
  const known = typeof agent === 'string' && Object.prototype.hasOwnProperty.call(DECODERS, agent);
  return known ? DECODERS[agent as AgentKind] : other;
}
export { outlineMark, type OutlineMark } from './outline.js';
