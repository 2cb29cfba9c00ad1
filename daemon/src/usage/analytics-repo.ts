import type {
  AnalyticsFilter,
  AnalyticsSummary,
  AnalyticsTimeseries,
  BreakdownBy,
  ToolStats,
  Tokens,
  TurnRow,
} from '../../../contract/usage.js';
import type { Db } from '../db/database.js';
import { pickBucket } from './buckets.js';
import {
  toolCallsWhere,
  turnsNarrowWhere,
  turnsPageWhere,
  turnsWhere,
  type Where,
} from './filters.js';
import { RollupAnalytics, seriesPoints } from './rollup-analytics.js';
import { cacheHitRate } from './stats.js';
import { toTurnRow, TURN_COLUMNS, type TurnDbRow } from './turn-rows.js';

export { toTurnRow, TURN_COLUMNS, type TurnDbRow };

interface Aggregate {
  turns: number;
  sessions: number;
  model_calls: number | null;
  input: number | null;
  output: number | null;
  cache_read: number | null;
  cache_creation: number | null;
  cost: number | null;
  unknown_cost: number | null;
  errors: number | null;
  median: number | null;
  p95: number | null;
}

// TOTAL (a float) where a sum of integers could overflow SQLite's 64 bits (an error, not a figure).
const AGGREGATES = `COUNT(*) AS turns, COUNT(DISTINCT session_id) AS sessions, TOTAL(model_calls) AS model_calls,
  TOTAL(input_tokens) AS input, TOTAL(output_tokens) AS output, TOTAL(cache_read_tokens) AS cache_read,
  TOTAL(cache_creation_tokens) AS cache_creation, TOTAL(cost_usd) AS cost, SUM(cost_usd IS NULL) AS unknown_cost,
  SUM(is_error) AS errors, median(duration_ms) AS median, percentile(duration_ms, 95) AS p95`;

/** A series shows no session counts: skipping the per-bucket DISTINCT saves a sort per bucket. */
const SERIES_AGGREGATES = AGGREGATES.replace(
  'COUNT(DISTINCT session_id) AS sessions',
  '0 AS sessions',
);

const TOOL_AGGREGATES = `tool_name, COUNT(*) AS calls, TOTAL(is_error = 1) AS errors,
  TOTAL(permission_decision IN ('denied', 'auto_denied')) AS denied, COUNT(DISTINCT turn_id) AS turns,
  median(duration_ms) AS median, percentile(duration_ms, 95) AS p95`;

const FEW_TOOL_CALLS = 5000;

const BREAKDOWN_COLUMN: Record<Exclude<BreakdownBy, 'tool'>, string> = {
  model: 'model',
  subscription: 'subscription_id',
  app: 'app',
  agent: 'agent',
};

const tokensOf = (a: Aggregate): Tokens => ({
  input: a.input ?? 0,
  output: a.output ?? 0,
  cache_read: a.cache_read ?? 0,
  cache_creation: a.cache_creation ?? 0,
});

export { cacheHitRate };

const costOf = (a: Aggregate): AnalyticsSummary['cost'] => ({
  estimate_usd: a.cost ?? 0,
  unknown_cost_turns: a.unknown_cost ?? 0,
  label: 'estimate',
});
const durationOf = (a: {
  median: number | null;
  p95: number | null;
}): { median_ms: number | null; p95_ms: number | null } => ({ median_ms: a.median, p95_ms: a.p95 });

/**
 * Read-only analytics. The rollups answer when they can (see RollupAnalytics); otherwise exact
 * queries over `turns` and `tool_calls`, where SQLite's median()/percentile() do the ranks.
 */
export class AnalyticsRepo {
  private readonly rollups: RollupAnalytics;
  private readonly firstTurnAt;
  private readonly lastTurnAt;

  constructor(
    private readonly db: Db,
    private readonly beforeRead: () => void = () => undefined,
    exactBelow?: number,
  ) {
    this.rollups = new RollupAnalytics(db, exactBelow);
    const edge = (fn: 'MIN' | 'MAX') =>
      db
        .prepare(
          `SELECT ${fn}(started_at_ms) FROM turns WHERE started_at_ms >= ? AND started_at_ms < ?`,
        )
        .pluck();
    this.firstTurnAt = edge('MIN');
    this.lastTurnAt = edge('MAX');
  }

  summary(filter: AnalyticsFilter): AnalyticsSummary {
    this.beforeRead();
    const fast = this.rollups.summary(filter);
    if (fast) {
      const f = fast.figures;
      return {
        turns: f.turns,
        sessions: fast.sessions,
        model_calls: f.model_calls,
        tokens: f.tokens,
        cost: f.cost,
        duration: f.duration,
        cache_hit_rate: cacheHitRate(f.tokens),
        errors: { count: f.errors, rate: f.turns > 0 ? f.errors / f.turns : null },
        tools: this.tools(filter),
      };
    }
    const a = this.all<Aggregate>(`SELECT ${AGGREGATES} FROM turns`, turnsNarrowWhere(filter))[0]!;
    const tokens = tokensOf(a);
    return {
      turns: a.turns,
      sessions: a.sessions,
      model_calls: a.model_calls ?? 0,
      tokens,
      cost: costOf(a),
      duration: durationOf(a),
      cache_hit_rate: cacheHitRate(tokens),
      errors: { count: a.errors ?? 0, rate: a.turns > 0 ? (a.errors ?? 0) / a.turns : null },
      tools: this.tools(filter),
    };
  }

  tools(filter: AnalyticsFilter): ToolStats[] {
    this.beforeRead();
    const fast = this.rollups.tools(filter);
    if (fast) return fast;
    const rows = this.all<{
      tool_name: string;
      calls: number;
      errors: number;
      denied: number;
      turns: number;
      median: number | null;
      p95: number | null;
    }>(
      `SELECT ${TOOL_AGGREGATES} FROM tool_calls`,
      toolCallsWhere(filter),
      'GROUP BY tool_name ORDER BY calls DESC, tool_name',
    );
    return rows.map((r) => ({
      tool_name: r.tool_name,
      calls: r.calls,
      errors: r.errors,
      denied: r.denied,
      turns: r.turns,
      duration: durationOf(r),
    }));
  }

  breakdown(
    filter: AnalyticsFilter,
    by: Exclude<BreakdownBy, 'tool'>,
  ): {
    key: string;
    turns: number;
    sessions: number;
    tokens: Tokens;
    cost: AnalyticsSummary['cost'];
    errors: number;
    duration: AnalyticsSummary['duration'];
  }[] {
    this.beforeRead();
    const fast = this.rollups.breakdown(filter, by);
    if (fast) {
      return fast.map(({ key, sessions, figures: f }) => ({
        key,
        turns: f.turns,
        sessions,
        tokens: f.tokens,
        cost: f.cost,
        errors: f.errors,
        duration: f.duration,
      }));
    }
    const column = BREAKDOWN_COLUMN[by];
    const rows = this.all<Aggregate & { key: string }>(
      `SELECT ${column} AS key, ${AGGREGATES} FROM turns`,
      turnsNarrowWhere(filter),
      `GROUP BY ${column} ORDER BY turns DESC, key`,
    );
    return rows.map((a) => ({
      key: a.key,
      turns: a.turns,
      sessions: a.sessions,
      tokens: tokensOf(a),
      cost: costOf(a),
      errors: a.errors ?? 0,
      duration: durationOf(a),
    }));
  }

  timeseries(filter: AnalyticsFilter, maxPoints: number): AnalyticsTimeseries {
    const period = this.seriesPeriod(filter);
    if (period === null)
      return {
        from: filter.from ?? null,
        to: filter.to ?? null,
        bucket: '1h',
        bucket_ms: 3_600_000,
        points: [],
      };
    const { from, to } = period;
    const bucket = pickBucket(to - from, maxPoints);
    const start = Math.floor(from / bucket.ms) * bucket.ms;
    const fast = this.rollups.series(filter, from, to, start, bucket.ms);
    return {
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      bucket: bucket.label,
      bucket_ms: bucket.ms,
      points: fast
        ? seriesPoints(fast, start, to, bucket.ms)
        : this.rawSeries(filter, from, to, start, bucket.ms),
    };
  }

  /** The filter's period, its open ends closed by the turns it holds; null when it holds none. */
  private seriesPeriod(filter: AnalyticsFilter): { from: number; to: number } | null {
    const from = filter.from ? Date.parse(filter.from) : null;
    const to = filter.to ? Date.parse(filter.to) : null;
    if (from !== null && to !== null) return { from, to };
    this.beforeRead();
    const span =
      this.periodSpan(filter) ??
      this.rollups.span(filter) ??
      this.all<{ lo: number | null; hi: number | null }>(
        'SELECT MIN(started_at_ms) AS lo, MAX(started_at_ms) AS hi FROM turns',
        turnsNarrowWhere(filter),
      )[0]!;
    if (span.lo === null || span.hi === null) return null;
    return { from: from ?? span.lo, to: to ?? span.hi + 1 };
  }

  /** The series summed from the turns themselves, when the rollups cannot answer the filter. */
  private rawSeries(
    filter: AnalyticsFilter,
    from: number,
    to: number,
    start: number,
    bucketMs: number,
  ): AnalyticsTimeseries['points'] {
    const rows = this.all<Aggregate & { t: number }>(
      `SELECT (started_at_ms - ${start}) / ${bucketMs} AS t, ${SERIES_AGGREGATES} FROM turns`,
      turnsNarrowWhere(filter, ['started_at_ms >= ?', 'started_at_ms < ?'], [from, to]),
      'GROUP BY t ORDER BY t',
    );
    const byIndex = new Map(rows.map((r) => [r.t, r]));
    const count = Math.max(1, Math.ceil((to - start) / bucketMs));
    const points: AnalyticsTimeseries['points'] = [];
    for (let i = 0; i < count; i++) {
      const a = byIndex.get(i);
      const tokens = a ? tokensOf(a) : { input: 0, output: 0, cache_read: 0, cache_creation: 0 };
      points.push({
        t: new Date(start + i * bucketMs).toISOString(),
        turns: a?.turns ?? 0,
        tokens,
        cost_estimate_usd: a?.cost ?? 0,
        errors: a?.errors ?? 0,
        duration: a ? durationOf(a) : { median_ms: null, p95_ms: null },
        cache_hit_rate: cacheHitRate(tokens),
      });
    }
    return points;
  }

  /** Newest first; the cursor is `<started_at_ms>.<id>` of the last row of the previous page. */
  turns(
    filter: AnalyticsFilter,
    limit: number,
    cursor: string | undefined,
  ): { items: TurnRow[]; next_cursor: string | null } {
    const extra: string[] = [];
    const args: number[] = [];
    if (cursor) {
      const [at, id] = cursor.split('.').map(Number);
      extra.push('(started_at_ms < ? OR (started_at_ms = ? AND id < ?))');
      args.push(at!, at!, id!);
    }
    const order = `ORDER BY started_at_ms DESC, id DESC`;
    let rows: TurnDbRow[];
    if (filter.tool?.length && this.fewToolCalls(filter)) {
      // Few matching calls: list their turns first, then read the page's columns for those only.
      const where = turnsNarrowWhere(filter, extra, args);
      rows = this.all<TurnDbRow>(
        `SELECT ${TURN_COLUMNS} FROM turns WHERE id IN (SELECT id FROM turns ${where.sql} ${order} LIMIT ${limit + 1})`,
        { sql: '', args: where.args },
        order,
      );
    } else {
      // Many (or no tool filter): walking newest first and probing each turn's calls finds a page soon.
      rows = this.all<TurnDbRow>(
        `SELECT ${TURN_COLUMNS} FROM turns`,
        turnsPageWhere(filter, extra, args),
        `${order} LIMIT ${limit + 1}`,
      );
    }
    const more = rows.length > limit;
    const items = rows.slice(0, limit).map(toTurnRow);
    const last = rows[limit - 1];
    return { items, next_cursor: more && last ? `${last.started_at_ms}.${last.id}` : null };
  }

  private fewToolCalls(filter: AnalyticsFilter): boolean {
    const where = toolCallsWhere(filter);
    return (
      (this.db
        .prepare(
          `SELECT COUNT(*) FROM (SELECT 1 FROM tool_calls ${where.sql} LIMIT ${FEW_TOOL_CALLS})`,
        )
        .pluck()
        .get(...where.args) as number) < FEW_TOOL_CALLS
    );
  }

  /** Every matching turn, oldest first, one row at a time (constant memory). */
  iterateTurns(filter: AnalyticsFilter): IterableIterator<TurnDbRow> {
    this.beforeRead();
    const where = turnsWhere(filter);
    return this.db
      .prepare(`SELECT ${TURN_COLUMNS} FROM turns ${where.sql} ORDER BY started_at_ms, id`)
      .iterate(...where.args) as IterableIterator<TurnDbRow>;
  }

  /**
   * First and last start time when the filter holds a period at most: two lookups in the turns'
   * time index (the rollups' way, for filtered spans, scanned every hour cell: 13 ms of 45 ms).
   */
  private periodSpan(filter: AnalyticsFilter): { lo: number | null; hi: number | null } | null {
    const { from, to, ...dimensions } = filter;
    if (Object.values(dimensions).some((value) => value !== undefined)) return null;
    const range = [from ? Date.parse(from) : -Infinity, to ? Date.parse(to) : Infinity];
    return {
      lo: this.firstTurnAt.get(...range) as number | null,
      hi: this.lastTurnAt.get(...range) as number | null,
    };
  }

  private all<T>(select: string, where: Where, tail = ''): T[] {
    this.beforeRead();
    return this.db.prepare(`${select} ${where.sql} ${tail}`).all(...where.args) as T[];
  }
}
