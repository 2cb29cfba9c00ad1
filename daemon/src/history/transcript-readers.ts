import { claudeTranscripts } from '../agents/claude/transcripts.js';
import { codexRollouts } from '../agents/codex/rollouts.js';
import type { TranscriptReader } from '../agents/transcript-reader.js';

const READERS: Record<string, TranscriptReader> = {
  claude: claudeTranscripts,
  codex: codexRollouts,
};

/** The transcript reader of an agent kind, or null when Relais cannot read its history. */
export function transcriptReader(agent: string): TranscriptReader | null {
  return READERS[agent] ?? null;
}
