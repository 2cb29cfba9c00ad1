// History import benchmark, whole daemon (its listeners included) on a real SQLite file:
//  1. first import of a generated tree of transcripts (BENCH_HISTORY_MB, default 1024; a share
//     BENCH_HISTORY_CODEX of it, default 0.25, Codex rollouts, the rest Claude Code's): MB/s,
//     responses (turns) counted per second, CPU time (steadier than MB/s on a shared machine), peak
//     RSS of the process, and the longest the event loop was kept from turning (perf_hooks'
//     monitorEventLoopDelay) during the import;
//  2. rescan of the unchanged tree (POST …/import, through HTTP), repeated;
//  3. a line appended to a watched transcript → the event on the conversation's live stream.
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { ImportReport, Session } from '../../contract/api.js';
import { startTestDaemon, waitFor } from '../src/testing/harness.js';
import { openNdjsonClient } from '../src/testing/ndjson-client.js';
import { claudeLines } from '../src/testing/transcripts.js';
import { writeCorpus, writeRollouts } from './history-corpus.js';
import { percentile } from './percentile.js';
import { loadAverage, threadCpu, threadCpuSince } from './thread-cpu.js';

const MB = 1024 * 1024;
const target = Number(process.env['BENCH_HISTORY_MB'] ?? 1024) * MB;
const codexShare = Number(process.env['BENCH_HISTORY_CODEX'] ?? 0.25);
const appends = Number(process.env['BENCH_HISTORY_APPENDS'] ?? 60);

const mb = (bytes: number): string => (bytes / MB).toFixed(0);

const root = mkdtempSync(join(tmpdir(), 'relais-bench-history-'));
const configDir = join(root, 'claude');
const codexHome = join(root, 'codex');
let started = Date.now();
const corpus = writeCorpus(configDir, target * (1 - codexShare));
const rollouts = writeRollouts(codexHome, target * codexShare);
console.log(
  `corpus: ${corpus.files} Claude files, ${mb(corpus.bytes)} MB; ${rollouts.files} Codex rollouts, ` +
    `${mb(rollouts.bytes)} MB; written in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);

const daemon = await startTestDaemon({ home: join(root, 'home') });
try {
  // Each subscription is created just before its first import: the import route starts the
  // watchers of every subscription, and a watcher's first scan would import one ahead of its turn.
  const subscribe = async (agent: string, dir: string): Promise<string> =>
    (await daemon.call('POST', '/api/subscriptions', { name: agent, agent, config_dir: dir })).body
      .id as string;
  const folders: [string, string][] = [['claude', configDir]];
  if (codexShare > 0) folders.push(['codex', codexHome]);
  const ids: string[] = [];
  const importAll = async (): Promise<ImportReport[]> => {
    const reports: ImportReport[] = [];
    for (const [i, [agent, dir]] of folders.entries()) {
      ids[i] ??= await subscribe(agent, dir);
      reports.push(
        (await daemon.call<ImportReport>('POST', `/api/subscriptions/${ids[i]}/import`)).body,
      );
    }
    return reports;
  };

  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  let peak = process.memoryUsage();
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    if (now.rss > peak.rss) peak = now;
  }, 20);
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const cpuBefore = process.cpuUsage();
  const threadsBefore = threadCpu();
  started = performance.now();
  const reports = await importAll();
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const byThread = threadCpuSince(threadsBefore);
  loop.disable();
  clearInterval(sampler);
  const sum = (key: 'files' | 'bytes' | 'lines' | 'turns' | 'sessions'): number =>
    reports.reduce((total, report) => total + report[key], 0);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const errors = reports.reduce((total, report) => total + report.errors.length, 0);
  console.log(
    `first import: ${sum('files')} files, ${mb(sum('bytes'))} MB, ${sum('lines')} lines, ${sum('turns')} responses, ` +
      `${sum('sessions')} sessions, ${errors} errors in ${seconds.toFixed(1)} s: ` +
      `${(sum('bytes') / MB / seconds).toFixed(1)} MB/s, ${Math.round(sum('turns') / seconds)} turns/s, ` +
      `CPU ${cpuSeconds.toFixed(1)} s (all threads; ${(cpuSeconds / (sum('bytes') / 1024 / MB)).toFixed(1)} s per GB; ` +
      `${byThread}), ` +
      `peak RSS ${mb(peak.rss)} MB (${mb(rssBefore)} MB before; then JS heap ${mb(peak.heapTotal)} MB, ` +
      `buffers ${mb(peak.external)} MB), event loop delay ` +
      `p99 ${(loop.percentile(99) / 1e6).toFixed(0)} ms, max ${(loop.max / 1e6).toFixed(0)} ms; ` +
      `load average ${loadAverage()}`,
  );

  const rescans: number[] = [];
  for (let i = 0; i < 10; i++) {
    started = performance.now();
    const again = await importAll();
    rescans.push(performance.now() - started);
    const read = again.reduce((total, report) => total + report.files_read, 0);
    if (read !== 0) throw new Error(`rescan read ${read} files`);
  }
  console.log(
    `rescan of the unchanged tree (${sum('files')} files): median ${percentile(rescans, 50).toFixed(1)} ms, ` +
      `max ${Math.max(...rescans).toFixed(1)} ms (no file read)`,
  );

  // Appending to a watched transcript (the newest conversation): the subscription's watcher
  // started with the import.
  const sessions = await daemon.call<{ items: Session[] }>(
    'GET',
    `/api/sessions?origin=imported&subscription=${ids[0]}&limit=1`,
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
