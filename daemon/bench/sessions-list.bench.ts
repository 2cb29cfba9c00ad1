// Sessions list under load, whole daemon on a real SQLite file: 8 busy sessions whose agents write
// lines without pause (BENCH_LIST_RATE events/s in all, default 2,000), 5 live readers following
// them, 300 ended sessions in the table, and a client in its own thread (as a browser would be)
// asking GET /api/sessions every 50 ms. Prints the list's latency p50/p95/p99 and the events stored.
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { insertSessionRow } from '../src/testing/fixtures.js';
import { startTestDaemon } from '../src/testing/harness.js';
import { openNdjsonClient } from '../src/testing/ndjson-client.js';
import { percentile } from './percentile.js';

const BUSY = 8;
const READERS = 5;
const ENDED = 300;
const RATE = Number(process.env['BENCH_LIST_RATE'] ?? 2000);
const SECONDS = Number(process.env['BENCH_LIST_SECONDS'] ?? 20);

const line = (i: number): string =>
  JSON.stringify({
    type: 'assistant',
    message: {
      id: `msg_${i >> 3}`,
      role: 'assistant',
      content: [{ type: 'text', text: `Line ${i}: ${'words of a reply '.repeat(12)}` }],
      usage: { input_tokens: 11, output_tokens: 1 },
    },
    session_id: 'ff8cff88-0000-4000-8000-000000000000',
  });

/** The client: its own event loop, so its parsing does not weigh on the daemon's. */
const CLIENT = `
const { parentPort, workerData } = require('node:worker_threads');
const { base, key, seconds } = workerData;
(async () => {
  const latencies = [];
  let bytes = 0;
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    const started = performance.now();
    const response = await fetch(base + '/api/sessions?limit=100', { headers: { authorization: 'Bearer ' + key } });
    const text = await response.text();
    if (response.status !== 200) throw new Error('GET /api/sessions: ' + response.status + ' ' + text);
    latencies.push(performance.now() - started);
    bytes = text.length;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  parentPort.postMessage({ latencies, bytes });
})();
`;

const daemon = await startTestDaemon();
try {
  const { db, events } = daemon.relais;
  for (let i = 0; i < ENDED; i++) {
    const id = insertSessionRow(db);
    for (let n = 0; n < 20; n++) events.append(id, 'agent', line(n));
  }
  const busy = Array.from({ length: BUSY }, () => insertSessionRow(db, { state: 'working' }));
  events.flush();
  const readers = await Promise.all(
    busy
      .slice(0, READERS)
      .map((id) => openNdjsonClient(daemon.base, daemon.key, `/api/sessions/${id}/stream?after=0`)),
  );

  let written = 0;
  let stop = false;
  const writer = (async () => {
    // Bursts every 10 ms, as agents' stdout arrives.
    const perBurst = Math.max(1, Math.round(RATE / 100));
    while (!stop) {
      for (let k = 0; k < perBurst; k++) {
        events.append(busy[written % BUSY]!, 'agent', line(written));
        written++;
      }
      await sleep(10);
    }
  })();

  const client = new Worker(CLIENT, {
    eval: true,
    workerData: { base: daemon.base, key: daemon.key, seconds: SECONDS },
  });
  const result = await new Promise<{ latencies: number[]; bytes: number }>((resolve, reject) => {
    client.once('message', resolve);
    client.once('error', reject);
  });
  stop = true;
  await writer;
  for (const reader of readers) reader.close();
  const { latencies } = result;
  console.log(
    `GET /api/sessions (${ENDED + BUSY} sessions, ${result.bytes} bytes) under ${BUSY} busy sessions ` +
      `(${Math.round(written / SECONDS)} events/s) and ${READERS} live readers, ${latencies.length} requests: ` +
      `p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms, ` +
      `p99 ${percentile(latencies, 99).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms`,
  );
} finally {
  await daemon.close();
}
