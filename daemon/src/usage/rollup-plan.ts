import { IMPORTED_APP, type AnalyticsFilter } from '../../../contract/usage.js';
import { originOperator } from './filters.js';
import {
  DAY_MS,
  DIMENSIONS,
  FIVE_MINUTES_MS,
  HOUR_MS,
  uses,
  type Dimension,
  type Kind,
} from './rollup-schema.js';

/** A slice of the period read from one source: a rollup grain, or raw rows when grain is null. */
export interface Piece {
  grain: number | null;
  from: number | null;
  to: number | null;
}

export const DIMENSION_COLUMN: Record<Dimension, string> = {
  subscription: 'subscription_id',
  agent: 'agent',
  model: 'model',
  app: 'app',
};

/**
 * The smallest cuboid that holds every filtered dimension (and the grouping one); null when no
 * rollup answers: several tools, or one tool with more than one dimension (per-tool cuboids are few).
 */
export function kindFor(filter: AnalyticsFilter, by?: Dimension, ignoreTool = false): Kind | null {
  if (filter.caller?.length) return null;
  const used = new Set<Dimension>(DIMENSIONS.filter((d) => filter[d]?.length));
  if (filter.origin) used.add('app');
  if (by) used.add(by);
  const kind: Kind = used.size === 0 ? 'none' : used.size === 1 ? [...used][0]! : 'all';
  if (!filter.tool?.length || ignoreTool) return kind;
  return filter.tool.length === 1 && kind !== 'all' ? kind : null;
}

/** Grains that hold the cells of `kind` for this filter, coarse → fine (see TOOL_CUBES). */
export function turnGrains(filter: AnalyticsFilter, kind: Kind): number[] {
  if (filter.tool?.length) return kind === 'none' ? [DAY_MS, HOUR_MS] : [DAY_MS];
  return kind === 'none' ? [DAY_MS, HOUR_MS, FIVE_MINUTES_MS] : [DAY_MS, HOUR_MS];
}

/** The tool_name of the usage_rollup rows that answer this filter ('' for no tool). */
export const toolCell = (filter: AnalyticsFilter): Clause => ({
  sql: ['tool_name = ?'],
  args: [filter.tool?.[0] ?? ''],
});

export function periodOf(filter: AnalyticsFilter): { from: number | null; to: number | null } {
  return {
    from: filter.from ? Date.parse(filter.from) : null,
    to: filter.to ? Date.parse(filter.to) : null,
  };
}

/**
 * Splits [from, to) into aligned slices of the coarsest grain that fits, then finer grains, then
 * raw rows for what no grain covers (grains coarse → fine, each a multiple of the next).
 */
export function split(from: number | null, to: number | null, grains: readonly number[]): Piece[] {
  if (from !== null && to !== null && from >= to) return [];
  const [grain, ...finer] = grains;
  if (grain === undefined) return [{ grain: null, from, to }];
  const lo = from === null ? null : Math.ceil(from / grain) * grain;
  const hi = to === null ? null : Math.floor(to / grain) * grain;
  if (lo !== null && hi !== null && lo >= hi) return split(from, to, finer);
  return [
    ...(lo === null ? [] : split(from, lo, finer)),
    { grain, from: lo, to: hi },
    ...(hi === null ? [] : split(hi, to, finer)),
  ];
}

export interface Clause {
  sql: string[];
  args: (string | number)[];
}

/** Conditions that pick the cells of `kind` matching the filter's dimensions (not time, not is_error). */
export function cellClause(kind: Kind, filter: AnalyticsFilter, prefix = ''): Clause {
  const sql = [`${prefix}kind = ?`];
  const args: (string | number)[] = [kind];
  for (const d of DIMENSIONS) {
    const column = `${prefix}${DIMENSION_COLUMN[d]}`;
    const values = filter[d];
    // An origin is a condition on the app (see originOperator), beside any list of apps.
    const origin = d === 'app' && filter.origin ? `${originOperator(filter)} ?` : null;
    if (!uses(kind, d)) {
      sql.push(`${column} = ''`);
      continue;
    }
    if (values?.length) {
      sql.push(`${column} IN (${values.map(() => '?').join(',')})`);
      args.push(...values);
    }
    // Every value seen, from the small one-dimension cuboid: the key prefix then stays usable
    // (the columns after it, and is_error, narrow the search instead of being tested row by row).
    else {
      const narrowed = origin ? ` AND ${DIMENSION_COLUMN[d]} ${origin}` : '';
      sql.push(
        `${column} IN (SELECT DISTINCT ${DIMENSION_COLUMN[d]} FROM usage_rollup WHERE grain = ${DAY_MS} AND kind = '${d}' AND tool_name = ''${narrowed})`,
      );
      if (origin) args.push(IMPORTED_APP);
      continue;
    }
    if (origin) {
      sql.push(`${column} ${origin}`);
      args.push(IMPORTED_APP);
    }
  }
  return { sql, args };
}

export function rangeClause(column: string, from: number | null, to: number | null): Clause {
  const sql: string[] = [];
  const args: number[] = [];
  if (from !== null) {
    sql.push(`${column} >= ?`);
    args.push(from);
  }
  if (to !== null) {
    sql.push(`${column} < ?`);
    args.push(to);
  }
  return { sql, args };
}

export const errorValue = (filter: AnalyticsFilter): number | null =>
  filter.error ? (filter.error === 'yes' ? 1 : 0) : null;

export function whereOf(...clauses: Clause[]): { sql: string; args: (string | number)[] } {
  const sql = clauses.flatMap((c) => c.sql);
  return {
    sql: sql.length ? `WHERE ${sql.join(' AND ')}` : '',
    args: clauses.flatMap((c) => c.args),
  };
}
