// Ingest benchmark: events persisted per second (verbatim JSON lines, batched transactions) on a
// real SQLite file in WAL mode: first the event store alone, then inside a whole daemon, where
// every event is also heard by its listeners (usage counting, quota readings).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as tick } from 'node:timers/promises';
import type { Db } from '../src/db/database.js';
import { openDatabase } from '../src/db/database.js';
import { EventStore } from '../src/events/event-store.js';
import { SessionMarksRepo } from '../src/sessions/session-marks-repo.js';
import { insertSessionRow } from '../src/testing/fixtures.js';
import { startTestDaemon } from '../src/testing/harness.js';
import { SCHEMA } from '../src/schema.js';

const TOTAL = Number(process.env['BENCH_EVENTS'] ?? 500_000);
const SESSIONS = 8;
const CHUNK = 2_000;

const line = (i: number): string =>
  JSON.stringify({
    type: 'assistant',
    message: {
      id: `msg_${i >> 4}`,
      role: 'assistant',
      content: [
        { type: 'text', text: `Line ${i} of the benchmark, with some text to make it realistic.` },
      ],
      usage: { input_tokens: 11, output_tokens: 1 },
    },
    session_id: 'ff8cff88-0000-4000-8000-000000000000',
    uuid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  });
const lines = Array.from({ length: 1000 }, (_, i) => line(i));
const bytes = lines.reduce((sum, l) => sum + l.length, 0) / lines.length;

async function measure(label: string, db: Db, store: EventStore): Promise<void> {
  const sessions = Array.from({ length: SESSIONS }, () => insertSessionRow(db));
  const before = (db.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number }).n;
  const started = process.hrtime.bigint();
  for (let i = 0; i < TOTAL; i++) {
    store.append(sessions[i % SESSIONS]!, 'agent', lines[i % lines.length]!);
    // Let the scheduled batch flush run, as it would between bursts of agent output.
    if (i % CHUNK === CHUNK - 1) await tick();
  }
  store.flush();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const stored = (db.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number }).n - before;
  console.log(
    `ingest (${label}): ${TOTAL} events (~${Math.round(bytes)} bytes, ${SESSIONS} sessions) in ${seconds.toFixed(2)} s: ` +
      `${Math.round(TOTAL / seconds).toLocaleString('en-US')} events/s persisted (${stored} rows)`,
  );
}

const dir = mkdtempSync(join(tmpdir(), 'relais-bench-ingest-'));
const db = openDatabase(join(dir, 'relais.db'), SCHEMA);
await measure('event store alone', db, new EventStore(db, new SessionMarksRepo(db)));
db.close();
rmSync(dir, { recursive: true, force: true });

const daemon = await startTestDaemon();
await measure('whole daemon, with its listeners', daemon.relais.db, daemon.relais.events);
await daemon.close();
