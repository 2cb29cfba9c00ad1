import type { AnalyticsFilter } from '../../../contract/usage.js';
import type { Db } from '../db/database.js';
import { toolCallsWhere, turnsWhere } from './filters.js';
import {
  cellClause,
  DIMENSION_COLUMN,
  errorValue,
  rangeClause,
  split,
  whereOf,
} from './rollup-plan.js';
import {
  DAY_MS,
  DIMENSIONS,
  NO_PREVIOUS_DAY,
  uses,
  type Dimension,
  type Kind,
} from './rollup-schema.js';

/**
 * A group spanning several cells sums their session counts and takes back the sessions that hold
 * two values of a dimension its cells differ in, up to this many such sessions; beyond, one
 * DISTINCT over its usage_sessions rows counts it.
 */
export const SPREAD_CAP = 1000;

/**
 * Exact distinct session counts per group (`by`, or one group '' when null): whole days from
 * usage_session_days (one cell per group) or usage_sessions, the partial days at the edges from raw turns.
 */
export function sessionCounts(
  db: Db,
  filter: AnalyticsFilter,
  kind: Kind,
  by: Dimension | null,
  period: { from: number | null; to: number | null },
  spreadCap = SPREAD_CAP,
): Map<string, number> {
  const key = by ? DIMENSION_COLUMN[by] : `''`;
  // One group needs no GROUP BY: SQLite would sort every row into a temporary b-tree by a
  // constant (a summary without filter: 26 → 11 ms over 125,000 sessions).
  const groupBy = (column: string): string => (by ? `GROUP BY ${column}` : '');
  const pieces = split(period.from, period.to, [DAY_MS]);
  const days = pieces.find((p) => p.grain !== null);
  const fringe = pieces.filter((p) => p.grain === null);
  const counts = new Map<string, number>();
  const add = (rows: unknown[]): void => {
    for (const [k, n] of rows as [string, number][]) counts.set(k, (counts.get(k) ?? 0) + n);
  };
  const rawWhere = (): { sql: string; args: (string | number)[] } => {
    const ranges = fringe.map((p) => rangeClause('started_at_ms', p.from, p.to));
    return turnsWhere(
      filter,
      [`(${ranges.map((r) => `(${r.sql.join(' AND ')})`).join(' OR ')})`],
      ranges.flatMap((r) => r.args),
    );
  };
  if (filter.tool?.length) {
    // tool_calls holds each call's session and its turn's dimensions: the covering index answers.
    const where = toolCallsWhere(filter);
    add(
      db
        .prepare(
          `SELECT ${key}, COUNT(DISTINCT session_id) FROM tool_calls ${where.sql} ${groupBy('1')}`,
        )
        .raw()
        .all(...where.args),
    );
    return counts;
  }
  if (!days) {
    const where = turnsWhere(filter);
    add(
      db
        .prepare(
          `SELECT ${key}, COUNT(DISTINCT session_id) FROM turns ${where.sql} ${groupBy('1')}`,
        )
        .raw()
        .all(...where.args),
    );
    return counts;
  }
  const e = errorValue(filter) ?? -1;
  const cells = whereOf(
    cellClause(kind, filter),
    { sql: ['is_error = ?'], args: [e] },
    rangeClause('day', days.from, days.to),
  );
  const varying = varyingDimensions(kind, filter, by);
  const spread =
    varying.length > 0 && fringe.length === 0 ? spreadSessions(db, varying, spreadCap) : 0;
  if (varying.length === 0 || (fringe.length === 0 && spread <= spreadCap)) {
    // A session's first day in the period: no day before it in the cell, or none since `from`.
    const firstIn = days.from === null ? `prev_day = ${NO_PREVIOUS_DAY}` : 'prev_day < ?';
    const firstArgs = days.from === null ? [] : [days.from];
    add(
      db
        .prepare(
          `SELECT ${key}, TOTAL(sessions) FROM usage_session_days ${cells.sql} AND ${firstIn} ${groupBy('1')}`,
        )
        .raw()
        .all(...cells.args, ...firstArgs),
    );
    if (spread > 0) {
      // The sum counted a session once per cell of its group it is in: the spread sessions, the
      // only ones that can be in two, are taken back to once. Their turns say which cells they
      // are in (the period is whole days here, so it is the filter's).
      const spreadOnes = turnsWhere(
        filter,
        [
          `session_id IN (SELECT session_id FROM usage_session_spread WHERE kind IN (${varying.map(() => '?').join(', ')}))`,
        ],
        varying,
      );
      const cell = DIMENSIONS.filter((d) => uses(kind, d))
        .map((d) => DIMENSION_COLUMN[d])
        .join(', ');
      add(
        db
          .prepare(
            `SELECT k, COUNT(DISTINCT session_id) - COUNT(*) FROM (SELECT DISTINCT ${key} AS k, ${cell}, session_id
            FROM turns INDEXED BY turns_by_session ${spreadOnes.sql}) ${groupBy('k')}`,
          )
          .raw()
          .all(...spreadOnes.args),
      );
    }
    if (fringe.length === 0) return counts;
    const raw = rawWhere();
    const sameCell = DIMENSIONS.map(
      (d) => `u.${DIMENSION_COLUMN[d]} = ${uses(kind, d) ? `turns.${DIMENSION_COLUMN[d]}` : `''`}`,
    ).join(' AND ');
    const inDays = rangeClause('u.day', days.from, days.to);
    const unseen = `NOT EXISTS (SELECT 1 FROM usage_sessions u WHERE u.session_id = turns.session_id AND u.kind = ? AND ${sameCell}
      AND u.is_error = ? ${inDays.sql.map((s) => `AND ${s}`).join(' ')})`;
    add(
      db
        .prepare(
          `SELECT ${key}, COUNT(DISTINCT session_id) FROM turns ${raw.sql} AND ${unseen} ${groupBy('1')}`,
        )
        .raw()
        .all(...raw.args, kind, e, ...inDays.args),
    );
    return counts;
  }
  const parts = [`SELECT ${key} AS k, session_id FROM usage_sessions ${cells.sql}`];
  const args = [...cells.args];
  if (fringe.length) {
    const raw = rawWhere();
    parts.push(`SELECT ${key} AS k, session_id FROM turns ${raw.sql}`);
    args.push(...raw.args);
  }
  add(
    db
      .prepare(
        `SELECT k, COUNT(DISTINCT session_id) FROM (${parts.join(' UNION ALL ')}) ${groupBy('k')}`,
      )
      .raw()
      .all(...args),
  );
  return counts;
}

/**
 * The dimensions whose values differ between the cells of one group: none when each group is a
 * single cell, so prev_day alone tells a session's first day in it.
 */
function varyingDimensions(kind: Kind, filter: AnalyticsFilter, by: Dimension | null): Dimension[] {
  return DIMENSIONS.filter((d) => uses(kind, d) && d !== by && filter[d]?.length !== 1);
}

/** How many sessions hold two values or more of one of `dimensions` (counted up to `cap` + 1). */
function spreadSessions(db: Db, dimensions: readonly Dimension[], cap: number): number {
  return db
    .prepare(
      `SELECT COUNT(*) FROM (SELECT DISTINCT session_id FROM usage_session_spread
        WHERE kind IN (${dimensions.map(() => '?').join(', ')}) LIMIT ?)`,
    )
    .pluck()
    .get(...dimensions, cap + 1) as number;
}
