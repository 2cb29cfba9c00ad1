import type { AnalyticsFilter } from '../../../contract/usage.js';
import type { Db } from '../db/database.js';
import { turnsNarrowWhere } from './filters.js';
import { Histogram } from './histogram.js';
import {
  cellClause,
  errorValue,
  toolCell,
  whereOf,
  rangeClause,
  type Piece,
} from './rollup-plan.js';
import type { Kind } from './rollup-schema.js';

export interface TurnAcc {
  turns: number;
  model_calls: number;
  input: number;
  output: number;
  cache_read: number;
  cache_creation: number;
  cost: number;
  unknown_cost: number;
  errors: number;
  hist: Histogram;
}

export const newAcc = (): TurnAcc => ({
  turns: 0,
  model_calls: 0,
  input: 0,
  output: 0,
  cache_read: 0,
  cache_creation: 0,
  cost: 0,
  unknown_cost: 0,
  errors: 0,
  hist: new Histogram(),
});

/** How rows are grouped: SQL over a rollup row (time column `t`) and over a raw turn (`started_at_ms`). */
export interface Grouping {
  rollup: string;
  raw: string;
}

type Row = [
  string | number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  Buffer | number,
];

/** Sums per group over rollup cells and raw rows; hist holds durations from both. */
export function turnAggregates(
  db: Db,
  filter: AnalyticsFilter,
  kind: Kind,
  pieces: readonly Piece[],
  group: Grouping,
): Map<string | number, TurnAcc> {
  const out = new Map<string | number, TurnAcc>();
  for (const piece of pieces) {
    const { grain } = piece;
    if (grain === null)
      for (const row of rawRows(db, filter, piece, group)) addRow(out, row as Row, false);
    else
      for (const row of rolledRows(db, filter, kind, piece, grain, group)) addRow(out, row, true);
  }
  return out;
}

function addRow(out: Map<string | number, TurnAcc>, row: Row, fromRollup: boolean): void {
  const [key, turns, calls, input, output, read, creation, cost, unknown, isError, hist] = row;
  let acc = out.get(key);
  if (!acc) out.set(key, (acc = newAcc()));
  acc.turns += turns;
  acc.model_calls += calls;
  acc.input += input;
  acc.output += output;
  acc.cache_read += read;
  acc.cache_creation += creation;
  acc.cost += cost;
  acc.unknown_cost += unknown;
  acc.errors += isError ? turns : 0;
  if (fromRollup) acc.hist.addBlob(hist as Buffer);
  else acc.hist.addValue(hist as number);
}

/** A partial piece of the period: the turns themselves, one row each. */
function rawRows(
  db: Db,
  filter: AnalyticsFilter,
  piece: Piece,
  group: Grouping,
): Iterable<unknown> {
  const iso = (ms: number | null): string | undefined =>
    ms === null ? undefined : new Date(ms).toISOString();
  // The piece as the period, so that a tool subquery is narrowed to it too.
  const where = turnsNarrowWhere({ ...filter, from: iso(piece.from), to: iso(piece.to) });
  return db
    .prepare(
      `SELECT ${group.raw}, 1, model_calls, input_tokens, output_tokens, cache_read_tokens, cache_creation_tokens,
        coalesce(cost_usd, 0), cost_usd IS NULL, is_error, duration_ms FROM turns ${where.sql}`,
    )
    .raw()
    .iterate(...where.args);
}

/** A piece of whole slots of its grain: the rollup's cells. */
function rolledRows(
  db: Db,
  filter: AnalyticsFilter,
  kind: Kind,
  piece: Piece,
  grain: number,
  group: Grouping,
): Row[] {
  const error = errorValue(filter);
  const where = whereOf(
    { sql: ['grain = ?'], args: [grain] },
    cellClause(kind, filter),
    toolCell(filter),
    error === null
      ? { sql: ['is_error IN (0, 1)'], args: [] }
      : { sql: ['is_error = ?'], args: [error] },
    rangeClause('t', piece.from, piece.to),
  );
  return (
    db
      .prepare(
        `SELECT ${group.rollup}, turns, model_calls, input, output, cache_read, cache_creation, cost, unknown_cost,
      is_error, hist FROM usage_rollup ${where.sql}`,
      )
      .raw()
      // All at once: a series reads thousands of cells, and stepping through them one call at
      // a time cost 10 % more.
      .all(...where.args) as Row[]
  );
}
