import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { AnalyticsFilter } from '../../../contract/usage.js';
import { openDatabase, type Db } from '../db/database.js';
import { AnalyticsRepo } from './analytics-repo.js';
import { turnsWhere } from './filters.js';
import { DIMENSION_COLUMN, kindFor, periodOf } from './rollup-plan.js';
import { ROLLUP_BACKFILL_SQL, ROLLUP_CLEAR_SQL, type Dimension } from './rollup-schema.js';
import { sessionCounts } from './rollup-sessions.js';
import type { TurnRecord } from '../agents/turn-record.js';
import { TurnWriter } from './turn-writer.js';
import { prng } from '../testing/prng.js';
import { oneSecondTurn } from '../testing/turns.js';
import { SCHEMA } from '../schema.js';

const T0 = Date.parse('2026-03-01T00:00:00.000Z');
const DAY = 86_400_000;
const SUBS = ['sub-a', 'sub-b', 'sub-c'];
const MODELS = ['m-1', 'm-2', 'm-3'];
const APPS = ['app-x', 'app-y', 'imported'];
const AGENTS = ['claude', 'codex'];
const BY: readonly Dimension[] = ['model', 'subscription', 'app', 'agent'];

/**
 * Sessions over up to three days whose subscription, agent and app stay put, but for a few
 * (`crossing` of them) that move to another value of one of them halfway: the sessions a group
 * spanning several cells would count twice.
 */
function generate(sessions: number, crossing: number, rand: () => number): TurnRecord[] {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const turns: TurnRecord[] = [];
  for (let s = 0; s < sessions; s++) {
    const meta = { subscription_id: pick(SUBS), agent: pick(AGENTS), app: pick(APPS) };
    const moved = rand() < crossing ? pick(['subscription_id', 'agent', 'app'] as const) : null;
    let at = T0 + Math.floor(rand() * 8 * DAY);
    const n = 1 + Math.floor(rand() * 12);
    for (let k = 0; k < n; k++) {
      at += Math.floor(rand() ** 2 * 8 * 3_600_000);
      if (moved && k === Math.floor(n / 2)) {
        const list = moved === 'subscription_id' ? SUBS : moved === 'agent' ? AGENTS : APPS;
        meta[moved] = list[(list.indexOf(meta[moved]) + 1) % list.length]!;
      }
      const model = pick(MODELS);
      const error = rand() < 0.15;
      turns.push(
        oneSecondTurn({ ...meta, model, turn_key: `s${s}:${k}`, session_id: `s${s}`, at, error }),
      );
    }
  }
  return turns;
}

function randomFilter(rand: () => number): AnalyticsFilter {
  const some = (list: readonly string[]): string[] | undefined => {
    if (rand() < 0.5) return undefined;
    const kept = list.filter(() => rand() < 0.5);
    return kept.length ? kept : [list[Math.floor(rand() * list.length)]!];
  };
  const filter: AnalyticsFilter = {
    subscription: some(SUBS),
    model: some(MODELS),
    app: some(APPS),
    agent: some(AGENTS),
  };
  if (rand() < 0.3) filter.error = rand() < 0.5 ? 'yes' : 'no';
  if (rand() < 0.2) filter.origin = rand() < 0.5 ? 'relais' : 'imported';
  const at = (ms: number): string => new Date(ms).toISOString();
  const mode = Math.floor(rand() * 4);
  // Whole days (the sums answer), or a period with partial days at its edges.
  if (mode === 1) {
    filter.from = at(T0 + (1 + Math.floor(rand() * 3)) * DAY);
    filter.to = at(T0 + (5 + Math.floor(rand() * 4)) * DAY);
  }
  if (mode === 2) filter.from = at(T0 + Math.floor(rand() * 6) * DAY);
  if (mode === 3) {
    const from = T0 + Math.floor(rand() * 6 * DAY);
    filter.from = at(from);
    filter.to = at(from + Math.floor(rand() * 4 * DAY));
  }
  return filter;
}

/** The distinct sessions per group, counted over the raw turns. */
function exactCounts(db: Db, filter: AnalyticsFilter, by: Dimension | null): Map<string, number> {
  const where = turnsWhere(filter);
  const key = by ? DIMENSION_COLUMN[by] : `''`;
  const rows = db
    .prepare(
      `SELECT ${key}, COUNT(DISTINCT session_id) FROM turns ${where.sql} GROUP BY 1 ORDER BY 1`,
    )
    .raw()
    .all(...where.args) as [string, number][];
  return new Map(rows);
}

const sorted = (counts: Map<string, number>): [string, number][] =>
  [...counts].filter(([, n]) => n !== 0).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

const dumpSpread = (db: Db): unknown[] => [
  db.prepare('SELECT * FROM usage_session_values ORDER BY 1, 2, 3').raw().all(),
  db.prepare('SELECT * FROM usage_session_spread ORDER BY 1, 2').raw().all(),
];

/** usage_session_values and usage_session_spread as a GROUP BY of usage_sessions would give them. */
function expectedSpread(db: Db): unknown[] {
  const value = `CASE kind ${(Object.entries(DIMENSION_COLUMN) as [Dimension, string][])
    .map(([d, column]) => `WHEN '${d}' THEN ${column}`)
    .join(' ')} END`;
  const values = `SELECT kind, session_id, ${value} AS value, COUNT(*) AS days FROM usage_sessions
    WHERE is_error = -1 AND kind NOT IN ('none', 'all') GROUP BY 1, 2, 3`;
  return [
    db.prepare(`${values} ORDER BY 1, 2, 3`).raw().all(),
    db
      .prepare(
        `SELECT kind, session_id FROM (${values}) GROUP BY 1, 2 HAVING COUNT(*) > 1 ORDER BY 1, 2`,
      )
      .raw()
      .all(),
  ];
}

describe('distinct sessions of groups that span several cells', () => {
  let home: string;
  let db: Db;
  const rand = prng(11);
  const turns = generate(900, 0.04, rand);

  before(() => {
    home = mkdtempSync(join(tmpdir(), 'relais-sessions-'));
    db = openDatabase(join(home, 'relais.db'), SCHEMA);
    const writer = new TurnWriter(db);
    // Out of order on purpose: a session's earlier day may arrive after a later one.
    for (const t of [...turns].sort(() => rand() - 0.5)) writer.add(t);
    writer.flush();
  });
  after(() => {
    db.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('usage_session_values and usage_session_spread follow usage_sessions: ingest, backfill, update, delete', () => {
    const spread = db.prepare('SELECT kind, COUNT(*) FROM usage_session_spread GROUP BY 1').raw();
    // Models change within a session; a few sessions moved to another subscription, agent or app.
    assert.deepEqual(
      (spread.all() as [string, number][]).map(([kind]) => kind),
      ['agent', 'app', 'model', 'subscription'],
    );
    const ingested = dumpSpread(db);
    assert.deepEqual(ingested, expectedSpread(db));
    db.exec(ROLLUP_CLEAR_SQL);
    assert.deepEqual(dumpSpread(db), [[], []]);
    db.exec(ROLLUP_BACKFILL_SQL);
    assert.deepEqual(dumpSpread(db), ingested);
    // A session moved to another app, another whose rows of one day go, rows moved to another
    // kind or error value, whole sessions deleted: checked inside a transaction rolled back.
    assert.throws(
      () =>
        db.transaction(() => {
          db.exec(
            `UPDATE usage_sessions SET app = 'app-moved' WHERE session_id = 's1' AND kind = 'app'`,
          );
          db.exec(
            `DELETE FROM usage_sessions WHERE session_id = 's2' AND day = (SELECT MIN(day) FROM usage_sessions WHERE session_id = 's2')`,
          );
          db.exec(
            `UPDATE usage_sessions SET kind = 'model' WHERE session_id = 's3' AND kind = 'agent'`,
          );
          db.exec(
            `UPDATE usage_sessions SET is_error = 7 WHERE session_id = 's4' AND is_error = -1`,
          );
          db.exec(`DELETE FROM usage_sessions WHERE session_id IN ('s5', 's6', 's7')`);
          assert.notDeepEqual(dumpSpread(db), ingested);
          assert.deepEqual(dumpSpread(db), expectedSpread(db));
          throw new Error('rolled back');
        })(),
      /rolled back/,
    );
    assert.deepEqual(dumpSpread(db), ingested);
  });

  it('summaries and breakdowns count the sessions the raw turns hold, over random filters', () => {
    const fast = new AnalyticsRepo(db, () => undefined, 0);
    const exact = new AnalyticsRepo(db, () => undefined, Number.MAX_SAFE_INTEGER);
    for (let i = 0; i < 120; i++) {
      const filter = randomFilter(rand);
      const by = BY[i % 4]!;
      const what = `${by} ${JSON.stringify(filter)}`;
      assert.equal(fast.summary(filter).sessions, exact.summary(filter).sessions, what);
      assert.deepEqual(
        fast.breakdown(filter, by).map((r) => [r.key, r.turns, r.sessions]),
        exact.breakdown(filter, by).map((r) => [r.key, r.turns, r.sessions]),
        what,
      );
    }
  });

  it('every way of counting gives the raw count: sums alone, sums taken back, one DISTINCT', () => {
    for (let i = 0; i < 200; i++) {
      const filter = randomFilter(rand);
      const by = i % 5 === 4 ? null : BY[i % 5]!;
      const kind = kindFor(filter, by ?? undefined)!;
      const expected = sorted(exactCounts(db, filter, by));
      // A cap of 0 leaves any group with a spread session to the DISTINCT; one of 5 takes a
      // few back and leaves the rest to it; the default takes every one back.
      for (const cap of [0, 5, undefined]) {
        const counts = sessionCounts(db, filter, kind, by, periodOf(filter), cap);
        assert.deepEqual(sorted(counts), expected, `${by} cap ${cap} ${JSON.stringify(filter)}`);
      }
    }
  });

  it('a group spanning cells with no spread session sums usage_session_days and reads no usage_sessions row', () => {
    // By app on one model: every subscription and agent of that model, and no session moved
    // between those in this copy of the data (the moved ones are taken out first).
    db.exec(`DELETE FROM usage_sessions WHERE session_id IN (SELECT session_id FROM usage_session_spread
      WHERE kind IN ('subscription', 'agent'))`);
    const filter: AnalyticsFilter = { model: ['m-2'] };
    const expected = sorted(countsFromSessions(db, filter));
    assert.ok(expected.length > 1);
    const statements: string[] = [];
    const prepare = db.prepare.bind(db);
    db.prepare = ((sql: string) => {
      statements.push(sql);
      return prepare(sql);
    }) as typeof db.prepare;
    try {
      const counts = sessionCounts(db, filter, kindFor(filter, 'app')!, 'app', periodOf(filter));
      assert.deepEqual(sorted(counts), expected);
    } finally {
      db.prepare = prepare;
    }
    const reads = statements.filter((sql) => !sql.includes('usage_session_spread'));
    assert.ok(reads.some((sql) => sql.includes('FROM usage_session_days')));
    assert.deepEqual(
      reads.filter((sql) => sql.includes('FROM usage_sessions')),
      [],
    );
  });
});

/** By app, on the model filter: what usage_sessions holds (the raw turns were left as they were). */
function countsFromSessions(db: Db, filter: AnalyticsFilter): Map<string, number> {
  const rows = db
    .prepare(
      `SELECT app, COUNT(DISTINCT session_id) FROM usage_sessions WHERE kind = 'all' AND is_error = -1
       AND model IN (${filter.model!.map(() => '?').join(', ')}) GROUP BY 1`,
    )
    .raw()
    .all(...filter.model!) as [string, number][];
  return new Map(rows);
}
