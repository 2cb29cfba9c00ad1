// History import benchmark, whole daemon (its listeners included) on a real SQLite file:
//  1. first import of a generated tree of Claude transcripts (BENCH_HISTORY_MB, default 1024):
//     MB/s, responses (turns) counted per second, peak RSS of the process during the import;
//  2. rescan of the unchanged tree (POST …/import, through HTTP), repeated;
//  3. a line appended to a watched transcript → the event on the conversation's live stream.
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ImportReport, Session } from '../../contract/api.js';
import { startTestDaemon, waitFor } from '../src/testing/harness.js';
import { openNdjsonClient } from '../src/testing/ndjson-client.js';
import { claudeLines } from '../src/testing/transcripts.js';
import { writeCorpus } from './history-corpus.js';
import { percentile } from './percentile.js';

const MB = 1024 * 1024;
const target = Number(process.env['BENCH_HISTORY_MB'] ?? 1024) * MB;
const appends = Number(process.env['BENCH_HISTORY_APPENDS'] ?? 60);

const mb = (bytes: number): string => (bytes / MB).toFixed(0);

const root = mkdtempSync(join(tmpdir(), 'relais-bench-history-'));
const configDir = join(root, 'claude');
let started = Date.now();
const corpus = writeCorpus(configDir, target);
console.log(
  `corpus: ${corpus.files} files, ${mb(corpus.bytes)} MB written in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);

const daemon = await startTestDaemon({ home: join(root, 'home') });
try {
  const created = await daemon.call('POST', '/api/subscriptions', {
    name: 'Bench',
    agent: 'claude',
    config_dir: configDir,
  });
  const id = created.body.id as string;

  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  started = performance.now();
  const first = (await daemon.call<ImportReport>('POST', `/api/subscriptions/${id}/import`)).body;
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  console.log(
    `first import: ${first.files} files, ${mb(first.bytes)} MB, ${first.lines} lines, ${first.turns} responses, ` +
      `${first.sessions} sessions, ${first.errors.length} errors in ${seconds.toFixed(1)} s: ` +
      `${(first.bytes / MB / seconds).toFixed(1)} MB/s, ${Math.round(first.turns / seconds)} turns/s, ` +
      `peak RSS ${mb(peak)} MB (${mb(rssBefore)} MB before)`,
  );

  const rescans: number[] = [];
  for (let i = 0; i < 10; i++) {
    started = performance.now();
    const again = (await daemon.call<ImportReport>('POST', `/api/subscriptions/${id}/import`)).body;
    rescans.push(performance.now() - started);
    if (again.files_read !== 0) throw new Error(`rescan read ${again.files_read} files`);
  }
  console.log(
    `rescan of the unchanged tree (${first.files} files): median ${percentile(rescans, 50).toFixed(1)} ms, ` +
      `max ${Math.max(...rescans).toFixed(1)} ms (no file read)`,
  );

  // Appending to a watched transcript (the newest conversation): the subscription's watcher
  // started with the import.
  const sessions = await daemon.call<{ items: Session[] }>(
    'GET',
    `/api/sessions?origin=imported&subscription=${id}&limit=1`,
  );
  const session = sessions.body.items[0];
  const path = session?.agent_session_id ? corpus.paths.get(session.agent_session_id) : undefined;
  if (!session || !path) throw new Error('no imported conversation to append to');
  const conversation =
    corpus.conversations.find((c) => c.sessionId === session.agent_session_id) ??
    corpus.conversations[0]!;
  const arrived = new Map<number, number>();
  const stream = await openNdjsonClient(
    daemon.base,
    daemon.key,
    `/api/sessions/${session.id}/stream?after=${session.last_seq}`,
    (value) => {
      if (value.type === 'event') arrived.set(value.event.seq, performance.now());
    },
  );
  const more = claudeLines({ ...conversation, turns: appends, idPrefix: 'appended' });
  const latencies: number[] = [];
  for (let i = 0; i < appends; i++) {
    const seq = session.last_seq + i + 1;
    const sent = performance.now();
    appendFileSync(path, `${more[i]}\n`);
    await waitFor(`event ${seq}`, () => arrived.has(seq), 10_000);
    latencies.push(arrived.get(seq)! - sent);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  stream.close();
  console.log(
    `append → event on the live stream (${appends} lines): p50 ${percentile(latencies, 50).toFixed(1)} ms, ` +
      `p95 ${percentile(latencies, 95).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms`,
  );
} finally {
  await daemon.close();
  rmSync(root, { recursive: true, force: true });
}
