// Writes a tree of Claude Code transcripts shaped like real ones (see src/testing/transcripts.ts):
// one file per conversation under projects/<cwd slug>/, tool results of varied sizes, a subagent
// transcript now and then, and resumed copies that repeat an earlier conversation's responses.
// Codex rollouts (sessions/YYYY/MM/DD/rollout-…-<thread>.jsonl) with command outputs of varied sizes.
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import {
  claudeLines,
  codexLines,
  resumedClaudeLines,
  type ClaudeConversation,
} from '../src/testing/transcripts.js';

export interface Corpus {
  files: number;
  bytes: number;
  conversations: ClaudeConversation[];
  /** Each conversation's own file (not its subagents'), by its session id. */
  paths: Map<string, string>;
}

const uuid = (n: number): string => {
  const hex = n.toString(16).padStart(12, '0');
  return `b0000000-0000-4000-8000-${hex}`;
};

function write(path: string, lines: string[]): number {
  const fd = openSync(path, 'w');
  let bytes = 0;
  try {
    for (let i = 0; i < lines.length; i += 256) {
      const text = lines.slice(i, i + 256).join('\n') + '\n';
      bytes += writeSync(fd, text);
    }
  } finally {
    closeSync(fd);
  }
  return bytes;
}

/** Writes about `targetBytes` of transcripts under `configDir/projects`. */
export function writeCorpus(configDir: string, targetBytes: number): Corpus {
  const corpus: Corpus = { files: 0, bytes: 0, conversations: [], paths: new Map() };
  const start = Date.parse('2026-01-05T08:00:00.000Z');
  for (let n = 0; corpus.bytes < targetBytes; n++) {
    const project = join(configDir, 'projects', `-home-me-project-${n % 12}`);
    mkdirSync(project, { recursive: true });
    const conversation: ClaudeConversation = {
      sessionId: uuid(n),
      cwd: `/home/me/project-${n % 12}`,
      startMs: start + n * 3_600_000,
      turns: 10 + (n % 40),
      resultBytes: 400 + ((n * 7919) % 12_000),
      idPrefix: `c${n}`,
    };
    const path = join(project, `${conversation.sessionId}.jsonl`);
    corpus.bytes += write(path, claudeLines(conversation));
    corpus.paths.set(conversation.sessionId, path);
    corpus.files++;
    corpus.conversations.push(conversation);
    if (n % 7 === 3) {
      const folder = join(project, conversation.sessionId, 'subagents');
      mkdirSync(folder, { recursive: true });
      const lines = claudeLines({ ...conversation, turns: 4, idPrefix: `s${n}` }).map((line) =>
        line.replace('"isSidechain":false', '"isSidechain":true'),
      );
      corpus.bytes += write(join(folder, `agent-${n}.jsonl`), lines);
      corpus.files++;
    }
    if (n % 10 === 9) {
      const lines = resumedClaudeLines(conversation, uuid(1_000_000 + n), 5);
      const resumed = join(project, `${uuid(1_000_000 + n)}.jsonl`);
      corpus.bytes += write(resumed, lines);
      corpus.paths.set(uuid(1_000_000 + n), resumed);
      corpus.files++;
    }
  }
  return corpus;
}

/** Writes about `targetBytes` of Codex rollouts under `codexHome/sessions`; returns files and bytes. */
export function writeRollouts(
  codexHome: string,
  targetBytes: number,
): { files: number; bytes: number } {
  const written = { files: 0, bytes: 0 };
  const start = Date.parse('2026-02-02T08:00:00.000Z');
  for (let n = 0; written.bytes < targetBytes; n++) {
    const startMs = start + n * 3_600_000;
    const day = new Date(startMs).toISOString().slice(0, 10).split('-');
    const folder = join(codexHome, 'sessions', ...day);
    mkdirSync(folder, { recursive: true });
    // Its first eight digits differ: the rollouts' response ids are made from them.
    const threadId = `${n.toString(16).padStart(8, '0')}-c0de-7000-8000-000000000000`;
    const output = 'y'.repeat(400 + ((n * 7919) % 12_000));
    const lines = codexLines({
      threadId,
      cwd: `/home/me/service-${n % 9}`,
      startMs,
      turns: 10 + (n % 40),
    })
      // Every command's output as long as a test run's, the rest of the line as Codex writes it.
      .map((line) => line.replace('"output":"ok"', `"output":"${output}"`));
    const stamp = new Date(startMs).toISOString().slice(0, 19).replaceAll(':', '-');
    written.bytes += write(join(folder, `rollout-${stamp}-${threadId}.jsonl`), lines);
    written.files++;
  }
  return written;
}
