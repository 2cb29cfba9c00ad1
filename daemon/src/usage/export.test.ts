import Fastify, { type FastifyInstance } from 'fastify';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { AnalyticsFilter, TurnRow } from '../../../contract/usage.js';
import { openDatabase, type Db } from '../db/database.js';
import { parseCsv } from '../testing/csv.js';
import { streamExport, type ExportFormat, type ExportOptions } from './export.js';
import { ExportWorkers, ThreadBudget } from './export-workers.js';
import type { TurnRecord } from '../agents/turn-record.js';
import { TurnWriter } from './turn-writer.js';
import { SCHEMA } from '../schema.js';

const T0 = Date.parse('2026-03-01T00:00:00.000Z');
const TURNS = 100;

/** Three turns per start time, written out of order: ranges must cut between equal times by id. */
function turn(i: number): TurnRecord {
  const error = i % 9 === 0;
  return {
    turn_key: `k${i}`,
    session_id: `s${i % 4}`,
    subscription_id: 'sub-a',
    agent: i % 2 ? 'claude' : 'codex',
    model: i % 3 ? 'claude-sonnet-4-5' : 'gpt-5-codex',
    models: ['x'],
    app: 'console',
    permission_mode: 'write',
    started_at_ms: T0 + Math.floor((TURNS - i) / 3) * 1000,
    ended_at_ms: T0 + Math.floor((TURNS - i) / 3) * 1000 + i,
    duration_ms: i,
    model_calls: 1,
    input_tokens: i,
    output_tokens: 2 * i,
    cache_read_tokens: 0,
    cache_creation_tokens: 0,
    cost_usd: i % 5 ? i / 1000 : null,
    is_error: error,
    error_kind: error ? 'api_error' : null,
    error_message: error ? `naïve, "quoted"\r\nline ${i}` : null,
    tool_calls: i % 2 ? [] : [tool(i)],
  };
}

function tool(i: number): TurnRecord['tool_calls'][number] {
  return {
    tool_use_id: `t${i}`,
    tool_name: 'Bash',
    started_at_ms: T0,
    ended_at_ms: T0 + 1,
    duration_ms: 1,
    is_error: false,
    permission_decision: 'allowed',
  };
}

const WHOLE: ExportOptions = { rangeRows: 1_000_000, threads: 1, budget: new ThreadBudget(1) };
const CUT: ExportOptions = { rangeRows: 7, threads: 2, budget: new ThreadBudget(2) };

interface Run {
  options: ExportOptions;
  filter: AnalyticsFilter;
  format: ExportFormat;
}

/** A server whose one route exports as the test says; `running` counts exports not yet ended. */
async function exportServer(file: string) {
  const app: FastifyInstance = Fastify();
  let run: Run = { options: WHOLE, filter: {}, format: 'csv' };
  let running = 0;
  app.get('/export', async (_request, reply) => {
    running++;
    try {
      await streamExport(file, run.filter, run.format, reply, run.options);
    } finally {
      running--;
    }
  });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    app,
    /** Resolves once every export has ended (a reader has its last byte before threads end). */
    allEnded: () => eventually(() => running === 0, 'every export ended'),
    async get(next: Run): Promise<string> {
      run = next;
      const answer = await fetch(`${address}/export`);
      assert.equal(answer.status, 200);
      return answer.text();
    },
    /** Reads the first bytes of an export, then hangs up. */
    abort(next: Run): Promise<void> {
      run = next;
      return new Promise((resolve, reject) => {
        const req = request(`${address}/export`, (res) => {
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        });
        req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
        req.end();
      });
    },
  };
}

/** The process's threads, as Linux counts them: an export's worker threads show here. */
function threads(): number {
  return Number(/^Threads:\s+(\d+)$/m.exec(readFileSync('/proc/self/status', 'utf8'))![1]);
}

async function eventually(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
  assert.ok(check(), what);
}

describe('export cut into ranges encoded by worker threads', () => {
  let dir: string;
  let db: Db;
  let server: Awaited<ReturnType<typeof exportServer>>;
  let order: number[];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'relais-export-'));
    const file = join(dir, 'relais.db');
    db = openDatabase(file, SCHEMA);
    const writer = new TurnWriter(db);
    for (let i = 0; i < TURNS; i++) writer.add(turn(i));
    writer.flush();
    order = db.prepare('SELECT id FROM turns ORDER BY started_at_ms, id').pluck().all() as number[];
    server = await exportServer(file);
  });
  after(async () => {
    await server.app.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const format of ['csv', 'json', 'ndjson'] as const) {
    it(`${format}: cut in ranges of 7 turns, byte for byte the export read in one piece`, async () => {
      for (const filter of [
        {},
        { tool: ['Bash'] },
        { model: ['gpt-5-codex'] },
        { model: ['none'] },
      ]) {
        const whole = await server.get({ options: WHOLE, filter, format });
        const cut = await server.get({ options: CUT, filter, format });
        assert.equal(cut, whole, JSON.stringify(filter));
      }
    });
  }

  it('every turn once, in the order of start time then id, across range edges', async () => {
    const ids = (text: string): number[] =>
      text
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as TurnRow).id);
    assert.deepEqual(ids(await server.get({ options: CUT, filter: {}, format: 'ndjson' })), order);
    const json = JSON.parse(await server.get({ options: CUT, filter: {}, format: 'json' }));
    assert.deepEqual(
      (json as TurnRow[]).map((t) => t.id),
      order,
    );
    const csv = parseCsv(await server.get({ options: CUT, filter: {}, format: 'csv' }));
    assert.deepEqual(
      csv.slice(1).map((row) => Number(row[0])),
      order,
    );
  });

  it('a range that is exactly full, or one turn over, ends the export cleanly', async () => {
    for (const rangeRows of [TURNS, TURNS - 1, TURNS / 2, 1]) {
      const text = await server.get({
        options: { ...CUT, rangeRows },
        filter: {},
        format: 'json',
      });
      assert.equal((JSON.parse(text) as TurnRow[]).length, TURNS, `ranges of ${rangeRows}`);
    }
  });

  it('a reader that hangs up ends the export and its threads', async () => {
    await server.get({ options: CUT, filter: {}, format: 'ndjson' });
    await server.allEnded();
    const idle = threads();
    await server.abort({ options: { ...CUT, rangeRows: 1 }, filter: {}, format: 'ndjson' });
    await server.allEnded();
    await eventually(() => threads() <= idle, `threads back to ${idle} (now ${threads()})`);
    assert.equal(CUT.budget.inUse, 0);
  });

  it('exports at once share the thread budget; those left without encode here, same bytes', async () => {
    const whole = await server.get({ options: WHOLE, filter: {}, format: 'csv' });
    await server.allEnded();
    const shared: ExportOptions = { rangeRows: 7, threads: 2, budget: new ThreadBudget(2) };
    const idle = threads();
    let most = 0;
    const watch = setInterval(() => (most = Math.max(most, threads() - idle)), 1);
    const texts = await Promise.all(
      [1, 2, 3, 4].map(() => server.get({ options: shared, filter: {}, format: 'csv' })),
    );
    clearInterval(watch);
    await server.allEnded();
    for (const text of texts) assert.equal(text, whole);
    assert.ok(most <= 2, `at most the budget's 2 threads at once (saw ${most})`);
    assert.equal(shared.budget.inUse, 0);
    const none: ExportOptions = { ...shared, budget: new ThreadBudget(0) };
    assert.equal(await server.get({ options: none, filter: {}, format: 'csv' }), whole);
  });

  it('a thread that cannot read the database fails its ranges instead of writing nothing', async () => {
    const workers = new ExportWorkers(1, {
      file: join(dir, 'missing.db'),
      filter: {},
      format: 'csv',
    });
    await assert.rejects(
      workers.encode({ after: null, through: null }),
      /export thread failed: .*SQLITE_CANTOPEN|unable to open/,
    );
    await workers.close();
  });
});
