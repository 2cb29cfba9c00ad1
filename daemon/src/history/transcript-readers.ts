import { AGENTS } from '../agents/catalog.js';
import type { TranscriptReader } from '../agents/transcript-reader.js';

const READERS = new Map(AGENTS.map((agent) => [agent.kind, agent.transcripts]));

/** The transcript reader of an agent kind, or null when Relais cannot read its history. */
export function transcriptReader(agent: string): TranscriptReader | null {
  return READERS.get(agent) ?? null;
}
