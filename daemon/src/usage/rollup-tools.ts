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
  const tools = new Map<string, ToolAcc>();
  const acc = (name: string): ToolAcc => {
    let a = tools.get(name);
    if (!a)
      tools.set(name, (a = { calls: 0, errors: 0, denied: 0, turns: 0, hist: new Histogram() }));
    return a;
  };
  const error = errorValue(filter);
  const toolList = filter.tool?.length
    ? { sql: [`tool_name IN (${filter.tool.map(() => '?').join(',')})`], args: filter.tool }
    : { sql: [], args: [] };
  for (const piece of split(period.from, period.to, [DAY_MS])) {
    if (piece.grain === null) {
      const range = rangeClause('turn_started_at_ms', piece.from, piece.to);
      const where = toolCallsWhereWith(filter, range.sql, range.args);
      const sums = db
        .prepare(
          `SELECT tool_name, COUNT(*), TOTAL(is_error = 1), TOTAL(permission_decision IN ('denied', 'auto_denied')),
        COUNT(DISTINCT turn_id) FROM tool_calls ${where.sql} GROUP BY tool_name`,
        )
        .raw()
        .all(...where.args) as [string, number, number, number, number][];
      for (const [name, calls, errors, denied, turns] of sums) {
        const a = acc(name);
        a.calls += calls;
        a.errors += errors;
        a.denied += denied;
        a.turns += turns;
      }
      const hist = db
        .prepare(
          `SELECT tool_name, ${BUCKET_SQL}, COUNT(*) FROM tool_calls ${where.sql} AND duration_ms IS NOT NULL
        GROUP BY 1, 2`,
        )
        .raw()
        .all(...where.args) as [string, number, number][];
      for (const [name, bucket, n] of hist) acc(name).hist.add(bucket, n);
      continue;
    }
    const where = whereOf(
      cellClause(kind, filter),
      error === null
        ? { sql: ['is_error IN (0, 1)'], args: [] }
        : { sql: ['is_error = ?'], args: [error] },
      rangeClause('day', piece.from, piece.to),
      toolList,
    );
    const rows = db
      .prepare(
        `SELECT tool_name, calls, errors, denied, turns, hist FROM usage_tool_rollup ${where.sql}`,
      )
      .raw()
      .iterate(...where.args);
    for (const [name, calls, errors, denied, turns, blob] of rows as Iterable<
      [string, number, number, number, number, Buffer]
    >) {
      const a = acc(name);
      a.calls += calls;
      a.errors += errors;
      a.denied += denied;
      a.turns += turns;
      a.hist.addBlob(blob);
    }
  }
  return [...tools.entries()]
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

function toolCallsWhereWith(
  filter: AnalyticsFilter,
  extra: string[],
  args: (string | number)[],
): { sql: string; args: (string | number)[] } {
  const base = toolCallsWhere(filter);
  const sql = [base.sql.replace(/^WHERE /, ''), ...extra].filter(Boolean);
  return { sql: `WHERE ${sql.join(' AND ')}`, args: [...base.args, ...args] };
}
