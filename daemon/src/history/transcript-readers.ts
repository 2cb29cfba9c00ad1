import { claudeTranscripts } from './claude-transcripts.js';
import { codexRollouts } from './codex-rollouts.js';
import type { TranscriptReader } from './transcript-reader.js';

const READERS: Record<string, TranscriptReader> = {
  claude: claudeTranscripts,
  codex: codexRollouts,
};

/** The transcript reader of an agent kind, or null when Relais cannot read its history. */
export function transcriptReader(agent: string): TranscriptReader | null {
  return READERS[agent] ?? null;
}
