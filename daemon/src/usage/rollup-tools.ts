import type { AnalyticsFilter, ToolStats } from '../../../contract/usage.js';
import type { Db } from '../db/database.js';
import { toolCallsWhere } from './filters.js';
import { Histogram, percentiles } from './histogram.js';
import { cellClause, errorValue, rangeClause, split, whereOf } from './rollup-plan.js';
import { DAY_MS, HIST_RATIO, type Kind } from './rollup-schema.js';

interface ToolAcc {
  calls: number;
  errors: number;
  denied: number;
  turns: number;
  hist: Histogram;
}

const BUCKET_SQL = `CASE WHEN duration_ms <= 0 THEN 0 ELSE CAST(floor(ln(duration_ms) / ln(${HIST_RATIO})) AS INTEGER) + 1 END`;

/** Per-tool figures: whole days from usage_tool_rollup, partial days at the edges from raw tool_calls. */
export function toolStats(
  db: Db,
  filter: AnalyticsFilter,
  kind: Kind,
  period: { from: number | null; to: number | null },
): ToolStats[] {
  const tally = new ToolTally();
  for (const piece of split(period.from, period.to, [DAY_MS])) {
    if (piece.grain === null) rawPiece(db, filter, piece, tally);
    else rolledPiece(db, filter, kind, piece, tally);
  }
  return tally.stats();
}

type Piece = ReturnType<typeof split>[number];
type Sums = [name: string, calls: number, errors: number, denied: number, turns: number];

/** The figures of each tool, summed over the pieces of the period. */
class ToolTally {
  private readonly tools = new Map<string, ToolAcc>();

  of(name: string): ToolAcc {
    let a = this.tools.get(name);
    if (!a)
      this.tools.set(
        name,
        (a = { calls: 0, errors: 0, denied: 0, turns: 0, hist: new Histogram() }),
      );
    return a;
  }

  add([name, calls, errors, denied, turns]: Sums): ToolAcc {
    const a = this.of(name);
    a.calls += calls;
    a.errors += errors;
    a.denied += denied;
    a.turns += turns;
    return a;
  }

  stats(): ToolStats[] {
    return [...this.tools.entries()]
      .map(([tool_name, a]) => {
        const [median, p95] = percentiles(a.hist, [50, 95]);
        return {
          tool_name,
          calls: a.calls,
          errors: a.errors,
          denied: a.denied,
          turns: a.turns,
          duration: { median_ms: median!, p95_ms: p95!, approximate: true },
        };
      })
      .sort(
        (x, y) =>
          y.calls - x.calls || (x.tool_name < y.tool_name ? -1 : x.tool_name > y.tool_name ? 1 : 0),
      );
  }
}

/** A partial day at an edge of the period: read from the tool calls themselves. */
function rawPiece(db: Db, filter: AnalyticsFilter, piece: Piece, tally: ToolTally): void {
  const range = rangeClause('turn_started_at_ms', piece.from, piece.to);
  const where = toolCallsWhereWith(filter, range.sql, range.args);
  const sums = db
    .prepare(
      `SELECT tool_name, COUNT(*), TOTAL(is_error = 1), TOTAL(permission_decision IN ('denied', 'auto_denied')),
        COUNT(DISTINCT turn_id) FROM tool_calls ${where.sql} GROUP BY tool_name`,
    )
    .raw()
    .all(...where.args) as Sums[];
  for (const row of sums) tally.add(row);
  const hist = db
    .prepare(
      `SELECT tool_name, ${BUCKET_SQL}, COUNT(*) FROM tool_calls ${where.sql} AND duration_ms IS NOT NULL
        GROUP BY 1, 2`,
    )
    .raw()
    .all(...where.args) as [string, number, number][];
  for (const [name, bucket, n] of hist) tally.of(name).hist.add(bucket, n);
}

/** Whole days: read from the rollup (or its sums over the days, when summedDays can). */
function rolledPiece(
  db: Db,
  filter: AnalyticsFilter,
  kind: Kind,
  piece: Piece,
  tally: ToolTally,
): void {
  const error = errorValue(filter);
  const toolList = filter.tool?.length
    ? { sql: [`tool_name IN (${filter.tool.map(() => '?').join(',')})`], args: filter.tool }
    : { sql: [], args: [] };
  const where = whereOf(
    cellClause(kind, filter),
    error === null
      ? { sql: ['is_error IN (0, 1)'], args: [] }
      : { sql: ['is_error = ?'], args: [error] },
    rangeClause('day', piece.from, piece.to),
    toolList,
  );
  const rows =
    summedDays(db, where) ??
    (db
      .prepare(
        `SELECT tool_name, calls, errors, denied, turns, hist FROM usage_tool_rollup ${where.sql}`,
      )
      .raw()
      .all(...where.args) as [string, number, number, number, number, Buffer][]);
  for (const [name, calls, errors, denied, turns, blob] of rows)
    tally.add([name, calls, errors, denied, turns]).hist.addBlob(blob);
}

const SAFE = Number.MAX_SAFE_INTEGER;

/**
 * The day cells summed per tool by SQLite, their histograms' pairs one after another: every
 * figure of a tool is a sum of integer counts, so any order adds to the same answer, and the
 * rows (a cell per tool, day, error value and combination of the unfiltered dimensions: 9,600
 * for a subscription and an app over 90 days) no longer each cross into JavaScript. Null, and
 * the caller reads the rows one by one, when a figure is not a non-negative integer, a sum is
 * past 2^53 (JavaScript's sums would round) or a histogram holds a part of a pair.
 */
function summedDays(
  db: Db,
  where: { sql: string; args: (string | number)[] },
): [string, number, number, number, number, Buffer][] | null {
  let rows: [string, number, number, number, number, Buffer, number][];
  try {
    rows = db
      .prepare(
        `SELECT tool_name, SUM(calls), SUM(errors), SUM(denied), SUM(turns), CAST(group_concat(hist, '') AS BLOB),
          MIN(typeof(calls) = 'integer' AND typeof(errors) = 'integer' AND typeof(denied) = 'integer'
            AND typeof(turns) = 'integer' AND min(calls, errors, denied, turns) >= 0 AND typeof(hist) = 'blob'
            AND length(hist) % 8 = 0)
        FROM usage_tool_rollup ${where.sql} GROUP BY tool_name`,
      )
      .raw()
      .all(...where.args) as [string, number, number, number, number, Buffer, number][];
  } catch (error) {
    if (error instanceof Error && /integer overflow/.test(error.message)) return null;
    throw error;
  }
  for (const [, calls, errors, denied, turns, , sound] of rows)
    if (sound !== 1 || !(calls <= SAFE && errors <= SAFE && denied <= SAFE && turns <= SAFE))
      return null;
  return rows.map(([name, calls, errors, denied, turns, hist]) => [
    name,
    calls,
    errors,
    denied,
    turns,
    hist,
  ]);
}

function toolCallsWhereWith(
  filter: AnalyticsFilter,
  extra: string[],
  args: (string | number)[],
): { sql: string; args: (string | number)[] } {
  const base = toolCallsWhere(filter);
  const sql = [base.sql.replace(/^WHERE /, ''), ...extra].filter(Boolean);
  return { sql: `WHERE ${sql.join(' AND ')}`, args: [...base.args, ...args] };
}
