import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { AnalyticsFilter } from '../../../contract/usage.js';
import { openDatabase, type Db } from '../db/database.js';
import { kindFor, periodOf } from './rollup-plan.js';
import { toolStats } from './rollup-tools.js';
import type { TurnRecord } from '../agents/turn-record.js';
import { TurnWriter } from './turn-writer.js';
import { prng } from '../testing/prng.js';
import { oneSecondTurn } from '../testing/turns.js';
import { SCHEMA } from '../schema.js';

const T0 = Date.parse('2026-03-01T00:00:00.000Z');
const DAY = 86_400_000;
const SUBS = ['sub-a', 'sub-b'];
const MODELS = ['m-1', 'm-2', 'm-3'];
const APPS = ['app-x', 'app-y'];
const TOOLS = ['Bash', 'Read', 'Edit', 'Grep', 'Task'];

function generate(count: number, rand: () => number): TurnRecord[] {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  return Array.from({ length: count }, (_, i) => {
    const at = T0 + Math.floor(rand() * 6 * DAY);
    const model = pick(MODELS);
    const error = rand() < 0.1;
    return oneSecondTurn({
      subscription_id: pick(SUBS),
      agent: 'claude',
      app: pick(APPS),
      model,
      turn_key: `k${i}`,
      session_id: `s${i >> 3}`,
      at,
      error,
      tool_calls: Array.from({ length: Math.floor(rand() * 4) }, (_, c) => ({
        tool_use_id: `t${i}.${c}`,
        tool_name: pick(TOOLS),
        started_at_ms: at + c,
        ended_at_ms: null,
        duration_ms: rand() < 0.1 ? null : Math.floor(rand() ** 3 * 90_000),
        is_error: rand() < 0.2 ? null : rand() < 0.15,
        permission_decision: pick(['allowed', 'denied', 'auto_denied', 'not_asked', null]),
      })),
    });
  });
}

const FILTERS: AnalyticsFilter[] = [
  {},
  { subscription: ['sub-a'], app: ['app-y'] },
  { model: ['m-1', 'm-3'] },
  { error: 'yes' },
  { from: new Date(T0 + DAY).toISOString(), to: new Date(T0 + 4 * DAY).toISOString() },
  { from: new Date(T0 + DAY + 3_600_000).toISOString(), model: ['m-2'] },
  { tool: ['Bash', 'Grep'], subscription: ['sub-b'] },
];

/** toolStats as it answers, and as it answers reading the day cells one row at a time. */
function bothWays(db: Db, filter: AnalyticsFilter): { summed: unknown; rowByRow: unknown } {
  const kind = kindFor(filter, undefined, true)!;
  const summed = toolStats(db, filter, kind, periodOf(filter));
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    if (sql.includes('group_concat(hist')) throw new Error('integer overflow');
    return prepare(sql);
  }) as typeof db.prepare;
  try {
    return { summed, rowByRow: toolStats(db, filter, kind, periodOf(filter)) };
  } finally {
    db.prepare = prepare;
  }
}

describe('tool figures from the day cells', () => {
  let home: string;
  let db: Db;
  const rand = prng(5);

  before(() => {
    home = mkdtempSync(join(tmpdir(), 'relais-tools-'));
    db = openDatabase(join(home, 'relais.db'), SCHEMA);
    const writer = new TurnWriter(db);
    for (const t of generate(3000, rand)) writer.add(t);
    writer.flush();
  });
  after(() => {
    db.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('summed per tool by SQLite, they are those read row by row, to the last digit', () => {
    for (const filter of FILTERS) {
      const { summed, rowByRow } = bothWays(db, filter);
      assert.ok((summed as unknown[]).length > 0, JSON.stringify(filter));
      assert.deepEqual(summed, rowByRow, JSON.stringify(filter));
    }
  });

  it('a cell that is not whole counts, or a histogram holding part of a pair, is read row by row', () => {
    const statements: string[] = [];
    const prepare = db.prepare.bind(db);
    const cells = `kind = 'none' AND tool_name = 'Bash' AND day = ${T0 + 2 * DAY} AND is_error = 0`;
    for (const hostile of [
      `UPDATE usage_tool_rollup SET errors = errors + 0.5 WHERE ${cells}`,
      `UPDATE usage_tool_rollup SET hist = CAST(hist || X'0102' AS BLOB) WHERE ${cells}`,
      `UPDATE usage_tool_rollup SET hist = CAST(hist AS TEXT) WHERE ${cells}`,
      `UPDATE usage_tool_rollup SET calls = 9007199254740990 WHERE ${cells}`,
    ]) {
      db.exec('BEGIN');
      try {
        db.exec(hostile);
        assert.equal(db.prepare('SELECT changes()').pluck().get(), 1, hostile);
        db.prepare = ((sql: string) => {
          statements.push(sql);
          return prepare(sql);
        }) as typeof db.prepare;
        let answer;
        try {
          answer = toolStats(db, {}, 'none', { from: null, to: null });
        } finally {
          db.prepare = prepare;
        }
        assert.ok(
          statements.some((sql) => sql.includes('group_concat(hist')),
          hostile,
        );
        assert.ok(
          statements.some((sql) => sql.startsWith('SELECT tool_name, calls, errors')),
          hostile,
        );
        assert.deepEqual(answer, bothWays(db, {}).rowByRow, hostile);
        statements.length = 0;
      } finally {
        db.exec('ROLLBACK');
      }
    }
  });
});
