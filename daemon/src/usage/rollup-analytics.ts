import type {
  AnalyticsFilter,
  AnalyticsSummary,
  AnalyticsTimeseries,
  ToolStats,
  Tokens,
} from '../../../contract/usage.js';
import type { Db } from '../db/database.js';
import { percentiles } from './histogram.js';
import {
  cellClause,
  DIMENSION_COLUMN,
  errorValue,
  kindFor,
  periodOf,
  rangeClause,
  split,
  toolCell,
  turnGrains,
  whereOf,
} from './rollup-plan.js';
import { DAY_MS, HOUR_MS, type Dimension } from './rollup-schema.js';
import { sessionCounts } from './rollup-sessions.js';
import { toolStats } from './rollup-tools.js';
import { newAcc, turnAggregates, type TurnAcc } from './rollup-turns.js';
import { turnsNarrowWhere } from './filters.js';
import { cacheHitRate } from './stats.js';

export type Duration = AnalyticsSummary['duration'];
export type Cost = AnalyticsSummary['cost'];

export interface TurnFigures {
  turns: number;
  model_calls: number;
  tokens: Tokens;
  cost: Cost;
  errors: number;
  duration: Duration;
}

export function figuresOf(a: TurnAcc): TurnFigures {
  const [median, p95] = percentiles(a.hist, [50, 95]);
  return {
    turns: a.turns,
    model_calls: a.model_calls,
    tokens: {
      input: a.input,
      output: a.output,
      cache_read: a.cache_read,
      cache_creation: a.cache_creation,
    },
    cost: { estimate_usd: a.cost, unknown_cost_turns: a.unknown_cost, label: 'estimate' },
    errors: a.errors,
    duration: { median_ms: median!, p95_ms: p95!, approximate: true },
  };
}

/** Up to this many turns in the period, exact answers cost little: rollups only serve bigger periods. */
export const EXACT_BELOW = 10_000;

/**
 * Answers from the rollups when the filter is expressible on their dimensions (no tool filter on
 * turn figures) and the period holds at least one whole hour; each method returns null otherwise,
 * and the caller runs the exact raw query.
 */
export class RollupAnalytics {
  private readonly countUpTo;

  /** `exactBelow`: periods holding at most this many turns (any filter) are left to the exact raw queries, which read few rows then. */
  constructor(
    private readonly db: Db,
    private readonly exactBelow = EXACT_BELOW,
  ) {
    this.countUpTo = db
      .prepare(
        'SELECT COUNT(*) FROM (SELECT 1 FROM turns WHERE started_at_ms >= ? AND started_at_ms < ? LIMIT ?)',
      )
      .pluck();
  }

  private small(period: { from: number | null; to: number | null }): boolean {
    if (this.exactBelow <= 0) return false;
    const n = this.countUpTo.get(
      period.from ?? Number.MIN_SAFE_INTEGER,
      period.to ?? Number.MAX_SAFE_INTEGER,
      this.exactBelow + 1,
    ) as number;
    return n <= this.exactBelow;
  }

  summary(filter: AnalyticsFilter): { figures: TurnFigures; sessions: number } | null {
    const kind = kindFor(filter);
    const period = periodOf(filter);
    const pieces = kind ? split(period.from, period.to, turnGrains(filter, kind)) : [];
    if (!kind || pieces.every((p) => p.grain === null) || this.small(period)) return null;
    const acc =
      turnAggregates(this.db, filter, kind, pieces, { rollup: `''`, raw: `''` }).get('') ??
      newAcc();
    return {
      figures: figuresOf(acc),
      sessions: sessionCounts(this.db, filter, kind, null, period).get('') ?? 0,
    };
  }

  breakdown(
    filter: AnalyticsFilter,
    by: Dimension,
  ): { key: string; sessions: number; figures: TurnFigures }[] | null {
    const kind = kindFor(filter, by);
    const period = periodOf(filter);
    const pieces = kind ? split(period.from, period.to, turnGrains(filter, kind)) : [];
    if (!kind || pieces.every((p) => p.grain === null) || this.small(period)) return null;
    const column = DIMENSION_COLUMN[by];
    const groups = turnAggregates(this.db, filter, kind, pieces, { rollup: column, raw: column });
    const sessions = sessionCounts(this.db, filter, kind, by, period);
    return [...groups.entries()]
      .map(([key, acc]) => ({
        key: String(key),
        sessions: sessions.get(String(key)) ?? 0,
        figures: figuresOf(acc),
      }))
      .sort(
        (x, y) => y.figures.turns - x.figures.turns || (x.key < y.key ? -1 : x.key > y.key ? 1 : 0),
      );
  }

  tools(filter: AnalyticsFilter): ToolStats[] | null {
    const kind = kindFor(filter, undefined, true);
    const period = periodOf(filter);
    if (
      !kind ||
      split(period.from, period.to, [DAY_MS]).every((p) => p.grain === null) ||
      this.small(period)
    )
      return null;
    return toolStats(this.db, filter, kind, period);
  }

  /** Figures per bucket index, for buckets that are whole hours (or whole days); null otherwise. */
  series(
    filter: AnalyticsFilter,
    from: number,
    to: number,
    start: number,
    bucketMs: number,
  ): Map<number, TurnFigures> | null {
    const kind = kindFor(filter);
    const grains = kind ? turnGrains(filter, kind).filter((g) => bucketMs % g === 0) : [];
    if (!kind || grains.length === 0) return null;
    const pieces = split(from, to, grains);
    if (pieces.every((p) => p.grain === null) || this.small({ from, to })) return null;
    const groups = turnAggregates(this.db, filter, kind, pieces, {
      rollup: `(t - ${start}) / ${bucketMs}`,
      raw: `(started_at_ms - ${start}) / ${bucketMs}`,
    });
    return new Map([...groups.entries()].map(([k, acc]) => [Number(k), figuresOf(acc)]));
  }

  /**
   * First and last start time of the matching turns: the hour from the rollup, the exact time from
   * raw rows in that hour (an edge hour may hold matches only outside the period: then the next one).
   */
  span(filter: AnalyticsFilter): { lo: number | null; hi: number | null } | null {
    const kind = kindFor(filter);
    if (!kind || !turnGrains(filter, kind).includes(HOUR_MS) || this.small(periodOf(filter)))
      return null;
    const error = errorValue(filter);
    const period = periodOf(filter);
    const cells = whereOf(
      { sql: ['grain = ?'], args: [HOUR_MS] },
      cellClause(kind, filter),
      toolCell(filter),
      error === null ? { sql: [], args: [] } : { sql: ['is_error = ?'], args: [error] },
    );
    const find = (fn: 'MIN' | 'MAX'): number | null => {
      let lo = period.from === null ? null : Math.floor(period.from / HOUR_MS) * HOUR_MS;
      let hi = period.to;
      for (let tries = 0; tries < 3; tries++) {
        const range = rangeClause('t', lo, hi);
        const hour = this.db
          .prepare(
            `SELECT ${fn}(t) FROM usage_rollup ${cells.sql} ${range.sql.map((c) => `AND ${c}`).join(' ')}`,
          )
          .pluck()
          .get(...cells.args, ...range.args) as number | null;
        if (hour === null) return null;
        const iso = (ms: number): string => new Date(ms).toISOString();
        // The hour as the period (within the filter's), so that a tool subquery reads that hour only.
        const from = Math.max(hour, period.from ?? hour);
        const to = Math.min(hour + HOUR_MS, period.to ?? hour + HOUR_MS);
        const where = turnsNarrowWhere({ ...filter, from: iso(from), to: iso(to) });
        const exact = this.db
          .prepare(`SELECT ${fn}(started_at_ms) FROM turns ${where.sql}`)
          .pluck()
          .get(...where.args) as number | null;
        if (exact !== null) return exact;
        if (fn === 'MIN') lo = hour + HOUR_MS;
        else hi = hour;
      }
      return null;
    };
    return { lo: find('MIN'), hi: find('MAX') };
  }
}

export function seriesPoints(
  figures: Map<number, TurnFigures>,
  start: number,
  to: number,
  bucketMs: number,
): AnalyticsTimeseries['points'] {
  const count = Math.max(1, Math.ceil((to - start) / bucketMs));
  const points: AnalyticsTimeseries['points'] = [];
  for (let i = 0; i < count; i++) {
    const f = figures.get(i);
    const tokens = f?.tokens ?? { input: 0, output: 0, cache_read: 0, cache_creation: 0 };
    points.push({
      t: new Date(start + i * bucketMs).toISOString(),
      turns: f?.turns ?? 0,
      tokens,
      cost_estimate_usd: f?.cost.estimate_usd ?? 0,
      errors: f?.errors ?? 0,
      duration: f?.duration ?? { median_ms: null, p95_ms: null },
      cache_hit_rate: cacheHitRate(tokens),
    });
  }
  return points;
}
