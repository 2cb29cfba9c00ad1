import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { AnalyticsFilter, AnalyticsSummary, ToolStats } from '../../../contract/usage.js';
import { openDatabase, type Db } from '../db/database.js';
import { AnalyticsRepo } from './analytics-repo.js';
import { turnsWhere } from './filters.js';
import { PERCENTILE_RELATIVE_ERROR } from './histogram.js';
import { ROLLUP_BACKFILL_SQL, ROLLUP_CLEAR_SQL } from './rollup-schema.js';
import type { TurnRecord } from '../agents/turn-record.js';
import { TurnWriter } from './turn-writer.js';
import { prng } from '../testing/prng.js';
import { SCHEMA } from '../schema.js';

const T0 = Date.parse('2026-03-01T00:00:00.000Z');
const SPAN = 9 * 86_400_000;
const SUBS = ['sub-a', 'sub-b', 'sub-c'];
const MODELS = ['m-1', 'm-2', 'm-3'];
const APPS = ['app-x', 'app-y', 'app,z', 'imported'];
const AGENTS = ['claude', 'codex'];
const TOOLS = ['Bash', 'Read', 'Edit', 'Grep'];

/** Sessions of 1–30 turns spread over up to two days, so sessions cross hour and day edges. */
function generate(count: number, rand: () => number): TurnRecord[] {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const turns: TurnRecord[] = [];
  for (let s = 0; turns.length < count; s++) {
    const meta = {
      subscription_id: pick(SUBS),
      agent: pick(AGENTS),
      app: pick(APPS),
      permission_mode: 'write',
    };
    let at = T0 + Math.floor(rand() * SPAN);
    for (let k = 0, n = 1 + Math.floor(rand() * 30); k < n && turns.length < count; k++) {
      at += Math.floor(rand() ** 2 * 4 * 3_600_000);
      const duration = rand() < 0.05 ? 0 : Math.floor(1 + rand() ** 3 * 200_000);
      const model = pick(MODELS);
      const error = rand() < 0.1;
      turns.push({
        ...meta,
        model,
        models: [model],
        turn_key: `s${s}:${k}`,
        session_id: `s${s}`,
        started_at_ms: at,
        ended_at_ms: at + duration,
        duration_ms: duration,
        model_calls: 1 + Math.floor(rand() * 3),
        input_tokens: Math.floor(rand() * 5000),
        output_tokens: Math.floor(rand() * 900),
        cache_read_tokens: Math.floor(rand() * 20_000),
        cache_creation_tokens: Math.floor(rand() * 800),
        cost_usd: rand() < 0.15 ? null : Math.round(rand() * 1e6) / 1e6,
        is_error: error,
        error_kind: error ? 'api_error' : null,
        error_message: null,
        tool_calls: Array.from({ length: Math.floor(rand() * 4) }, (_, c) => ({
          tool_use_id: `t${s}.${k}.${c}`,
          tool_name: pick(TOOLS),
          started_at_ms: at + c,
          ended_at_ms: null,
          duration_ms: rand() < 0.1 ? null : Math.floor(rand() * 9000),
          is_error: rand() < 0.2 ? null : rand() < 0.1,
          permission_decision: pick(['allowed', 'denied', 'auto_denied', 'not_asked', null]),
        })),
      });
    }
  }
  return turns;
}

function randomFilter(rand: () => number): AnalyticsFilter {
  const some = (list: readonly string[]): string[] | undefined =>
    rand() < 0.6
      ? undefined
      : list.filter(() => rand() < 0.5).concat(list[Math.floor(rand() * list.length)]!);
  const dedupe = (v: string[] | undefined): string[] | undefined =>
    v ? [...new Set(v)] : undefined;
  const f: AnalyticsFilter = {
    subscription: dedupe(some(SUBS)),
    model: dedupe(some(MODELS)),
    app: dedupe(some(APPS)),
    agent: dedupe(some(AGENTS)),
  };
  if (rand() < 0.3) f.error = rand() < 0.5 ? 'yes' : 'no';
  if (rand() < 0.3)
    f.tool = rand() < 0.7 ? [TOOLS[Math.floor(rand() * TOOLS.length)]!] : ['Bash', 'Grep'];
  const mode = Math.floor(rand() * 5);
  const at = (x: number): string => new Date(x).toISOString();
  if (mode === 1) {
    f.from = at(T0 + 86_400_000);
    f.to = at(T0 + 5 * 86_400_000);
  }
  if (mode === 2 || mode === 3) {
    const from = T0 + Math.floor(rand() * SPAN);
    const to = from + 1 + Math.floor(rand() * (mode === 2 ? SPAN : 3_600_000));
    f.from = at(from);
    f.to = at(to);
  }
  if (mode === 4) {
    if (rand() < 0.5) f.from = at(T0 + Math.floor(rand() * SPAN));
    else f.to = at(T0 + Math.floor(rand() * SPAN));
  }
  return f;
}

const close = (actual: number, expected: number, what: string): void =>
  assert.ok(
    Math.abs(actual - expected) <= 1e-9 * Math.max(1, Math.abs(expected)),
    `${what}: ${actual} ≠ ${expected}`,
  );

function sameDuration(
  actual: { median_ms: number | null; p95_ms: number | null },
  exact: { median_ms: number | null; p95_ms: number | null },
  what: string,
): void {
  for (const k of ['median_ms', 'p95_ms'] as const) {
    if (exact[k] === null) {
      assert.equal(actual[k], null, `${what} ${k}`);
      continue;
    }
    const error = Math.abs(actual[k]! - exact[k]!);
    assert.ok(
      error <= PERCENTILE_RELATIVE_ERROR * exact[k]! + 1e-9,
      `${what} ${k}: ${actual[k]} vs exact ${exact[k]}`,
    );
  }
}

function sameTools(actual: ToolStats[], exact: ToolStats[], what: string): void {
  assert.deepEqual(
    actual.map((t) => [t.tool_name, t.calls, t.errors, t.denied, t.turns]),
    exact.map((t) => [t.tool_name, t.calls, t.errors, t.denied, t.turns]),
    what,
  );
  actual.forEach((t, i) => sameDuration(t.duration, exact[i]!.duration, `${what} ${t.tool_name}`));
}

function sameSummary(actual: AnalyticsSummary, exact: AnalyticsSummary, what: string): void {
  const { tools, duration, cost, cache_hit_rate: rate, ...counts } = actual;
  const {
    tools: exactTools,
    duration: exactDuration,
    cost: exactCost,
    cache_hit_rate: exactRate,
    ...exactCounts
  } = exact;
  assert.deepEqual(counts, exactCounts, what);
  close(cost.estimate_usd, exactCost.estimate_usd, `${what} cost`);
  assert.equal(cost.unknown_cost_turns, exactCost.unknown_cost_turns, `${what} unknown cost`);
  close(rate ?? -1, exactRate ?? -1, `${what} cache rate`);
  sameDuration(duration, exactDuration, what);
  sameTools(tools, exactTools, `${what} tools`);
}

const iso = (ms: number): string => new Date(ms).toISOString();

describe('rollups answer as the raw rows do', () => {
  let home: string;
  let db: Db;
  let fast: AnalyticsRepo;
  let exact: AnalyticsRepo;
  const rand = prng(7);
  const turns = generate(6000, rand);

  before(() => {
    home = mkdtempSync(join(tmpdir(), 'relais-rollup-'));
    db = openDatabase(join(home, 'relais.db'), SCHEMA);
    const writer = new TurnWriter(db);
    // Out of order on purpose: a session's earlier day may arrive after a later one.
    for (const t of [...turns].sort(() => rand() - 0.5)) writer.add(t);
    writer.flush();
    fast = new AnalyticsRepo(db, () => undefined, 0);
    exact = new AnalyticsRepo(db, () => undefined, Number.MAX_SAFE_INTEGER);
  });
  after(() => {
    db.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('summary and tools over 150 random filters and periods (aligned, unaligned, open-ended, under an hour)', () => {
    for (let i = 0; i < 150; i++) {
      const filter = randomFilter(rand);
      const what = JSON.stringify(filter);
      sameSummary(fast.summary(filter), exact.summary(filter), what);
      if (rand() < 0.3) {
        const tool = { ...filter, tool: [TOOLS[i % TOOLS.length]!] };
        sameTools(fast.tools(tool), exact.tools(tool), JSON.stringify(tool));
      }
    }
  });

  it('a summary counts its sessions without sorting them into a temporary b-tree', () => {
    const plans: string[] = [];
    const prepare = db.prepare.bind(db);
    const spy = ((sql: string) => {
      if (sql.includes('usage_session') || sql.includes('COUNT(DISTINCT session_id)')) {
        const plan = prepare(`EXPLAIN QUERY PLAN ${sql}`).all(
          ...Array.from(sql.matchAll(/\?/g), () => null),
        ) as { detail: string }[];
        plans.push(...plan.map((row) => row.detail));
      }
      return prepare(sql);
    }) as typeof db.prepare;
    db.prepare = spy;
    try {
      for (const filter of [{}, { from: '2026-01-01T00:00:00Z' }, { model: [MODELS[0]!] }]) {
        const summary = fast.summary(filter);
        assert.equal(summary.sessions, exact.summary(filter).sessions, JSON.stringify(filter));
      }
    } finally {
      db.prepare = prepare;
    }
    assert.ok(plans.length > 0);
    assert.deepEqual(
      plans.filter((detail) => detail.includes('TEMP B-TREE FOR GROUP BY')),
      [],
    );
  });

  it('breakdowns by every dimension', () => {
    for (let i = 0; i < 80; i++) {
      const filter = randomFilter(rand);
      const by = (['model', 'subscription', 'app', 'agent'] as const)[i % 4];
      const a = fast.breakdown(filter, by);
      const b = exact.breakdown(filter, by);
      const what = `${by} ${JSON.stringify(filter)}`;
      assert.deepEqual(
        a.map((r) => [r.key, r.turns, r.sessions, r.tokens, r.errors, r.cost.unknown_cost_turns]),
        b.map((r) => [r.key, r.turns, r.sessions, r.tokens, r.errors, r.cost.unknown_cost_turns]),
        what,
      );
      a.forEach(
        (r, k) => (
          close(r.cost.estimate_usd, b[k]!.cost.estimate_usd, what),
          sameDuration(r.duration, b[k]!.duration, `${what} ${r.key}`)
        ),
      );
    }
  });

  it('time series with hour, multi-hour and day buckets', () => {
    for (let i = 0; i < 60; i++) {
      const filter = randomFilter(rand);
      const points = [10, 40, 240, 3000][i % 4]!;
      const a = fast.timeseries(filter, points);
      const b = exact.timeseries(filter, points);
      const what = `${points} ${JSON.stringify(filter)}`;
      assert.deepEqual({ ...a, points: a.points.length }, { ...b, points: b.points.length }, what);
      a.points.forEach((p, k) => {
        const q = b.points[k]!;
        assert.deepEqual(
          [p.t, p.turns, p.tokens, p.errors],
          [q.t, q.turns, q.tokens, q.errors],
          what,
        );
        close(p.cost_estimate_usd, q.cost_estimate_usd, what);
        sameDuration(p.duration, q.duration, `${what} ${p.t}`);
      });
    }
  });

  it('a series without a filter, or with a period only, spans its first to its last turn', () => {
    const edges = (from: number, to: number): number[] =>
      db
        .prepare(
          'SELECT MIN(started_at_ms), MAX(started_at_ms) FROM turns WHERE started_at_ms >= ? AND started_at_ms < ?',
        )
        .raw()
        .get(from, to) as number[];
    const [lo, hi] = edges(0, Number.MAX_SAFE_INTEGER);
    const whole = fast.timeseries({}, 40);
    assert.deepEqual([whole.from, whole.to], [iso(lo!), iso(hi! + 1)]);
    // Only one end given: the other is the edge turn inside it.
    const middle = Math.floor((lo! + hi!) / 2);
    const early = fast.timeseries({ to: iso(middle) }, 40);
    assert.deepEqual([early.from, early.to], [iso(lo!), iso(middle)]);
    const late = fast.timeseries({ from: iso(middle) }, 40);
    assert.deepEqual([late.from, late.to], [iso(middle), iso(hi! + 1)]);
  });

  it('a tool filter narrowed by the other filters picks the same turns', () => {
    for (let i = 0; i < 40; i++) {
      const filter = {
        ...randomFilter(rand),
        tool: [TOOLS[i % TOOLS.length]!, ...(i % 3 ? [] : [TOOLS[(i + 1) % TOOLS.length]!])],
      };
      const plain = turnsWhere(filter);
      const [turns, sessions] = db
        .prepare(`SELECT COUNT(*), COUNT(DISTINCT session_id) FROM turns ${plain.sql}`)
        .raw()
        .get(...plain.args) as number[];
      const s = exact.summary(filter);
      assert.deepEqual([s.turns, s.sessions], [turns, sessions], JSON.stringify(filter));
      assert.deepEqual(
        [
          fast.summary(filter).turns,
          fast.timeseries(filter, 40).points.reduce((a, p) => a + p.turns, 0),
        ],
        [turns, turns],
      );
    }
  });

  it('turn pages under a tool filter hold the turns the export holds, newest first', () => {
    for (const tool of [['Bash'], TOOLS, ['Read', 'Edit']]) {
      const filter = { ...randomFilter(rand), tool };
      const ids: number[] = [];
      let cursor: string | undefined;
      do {
        const page = exact.turns(filter, 50, cursor);
        ids.push(...page.items.map((t) => t.id));
        cursor = page.next_cursor ?? undefined;
      } while (cursor);
      assert.deepEqual(
        ids,
        [...exact.iterateTurns(filter)].map((t) => t.id).reverse(),
        JSON.stringify(filter),
      );
    }
  });

  it('an origin (imported turns only, or every app but imported) beside the other filters', () => {
    for (let i = 0; i < 60; i++) {
      const origin = i % 2 ? 'relais' : 'imported';
      const filter: AnalyticsFilter = { ...randomFilter(rand), origin };
      const what = JSON.stringify(filter);
      const plain = turnsWhere(filter);
      const [turns] = db
        .prepare(`SELECT COUNT(*) FROM turns ${plain.sql}`)
        .raw()
        .get(...plain.args) as number[];
      const apps = new Set(filter.app ?? APPS);
      const kept = APPS.filter(
        (a) => apps.has(a) && (a === 'imported') === (origin === 'imported'),
      );
      const wanted = turnsWhere({ ...filter, origin: undefined, app: kept });
      const [expected] = kept.length
        ? (db
            .prepare(`SELECT COUNT(*) FROM turns ${wanted.sql}`)
            .raw()
            .get(...wanted.args) as number[])
        : [0];
      assert.equal(turns, expected, what);
      sameSummary(fast.summary(filter), exact.summary(filter), what);
      const by = (['model', 'subscription', 'app', 'agent'] as const)[i % 4];
      assert.deepEqual(
        fast.breakdown(filter, by).map((r) => [r.key, r.turns, r.sessions]),
        exact.breakdown(filter, by).map((r) => [r.key, r.turns, r.sessions]),
        `${by} ${what}`,
      );
      assert.deepEqual(
        fast.timeseries(filter, 40).points.map((p) => [p.t, p.turns]),
        exact.timeseries(filter, 40).points.map((p) => [p.t, p.turns]),
        what,
      );
    }
  });

  it('usage_session_days counts the usage_sessions rows of each cell, day and previous day', () => {
    const counted = (sql: string): unknown[] => db.prepare(sql).raw().all();
    const cell = 'kind, subscription_id, agent, model, app, is_error, day';
    const expected = counted(
      `SELECT ${cell}, ifnull(prev_day, -9223372036854775808), COUNT(*) FROM usage_sessions
       GROUP BY ${cell}, ifnull(prev_day, -9223372036854775808) ORDER BY ${cell}, 8`,
    );
    // The out-of-order ingest above moved some rows' prev_day: each move was counted again.
    assert.ok(counted('SELECT 1 FROM usage_sessions WHERE prev_day IS NOT NULL').length > 0);
    assert.deepEqual(
      counted(`SELECT * FROM usage_session_days ORDER BY ${cell}, prev_day`),
      expected,
    );
  });

  it('the migration backfill builds the same rollups as ingest did', () => {
    const dump = (): unknown[] => [
      db
        .prepare(
          'SELECT grain, kind, subscription_id, agent, model, app, is_error, t, turns, model_calls, input, output, cache_read, cache_creation, round(cost, 6), unknown_cost, hex(hist) FROM usage_rollup ORDER BY 1, 2, 3, 4, 5, 6, 7, 8',
        )
        .raw()
        .all(),
      db
        .prepare(
          'SELECT * FROM usage_sessions ORDER BY kind, subscription_id, agent, model, app, is_error, day, session_id',
        )
        .raw()
        .all(),
      db
        .prepare(
          'SELECT * FROM usage_tool_rollup ORDER BY kind, subscription_id, agent, model, app, is_error, day, tool_name',
        )
        .raw()
        .all(),
      db
        .prepare(
          'SELECT * FROM usage_session_days ORDER BY kind, subscription_id, agent, model, app, is_error, day, prev_day',
        )
        .raw()
        .all(),
    ];
    const ingested = dump();
    db.exec(ROLLUP_CLEAR_SQL);
    // Clearing usage_sessions cleared its counts too (the delete trigger), and the backfill's
    // inserts counted them again.
    assert.equal(db.prepare('SELECT COUNT(*) FROM usage_session_days').pluck().get(), 0);
    db.exec(ROLLUP_BACKFILL_SQL);
    assert.deepEqual(dump(), ingested);
  });
});
