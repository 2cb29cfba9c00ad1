import type { Db } from '../db/database.js';
import { ROLLUP_BACKFILL_SQL } from './rollup-schema.js';
import { TURN_BOUNDS } from './turn-bounds.js';

const within = (column: string, low: number, high: number): string =>
  `${column} = MIN(${high}, MAX(${low}, ${column}))`;
const outside = (column: string, low: number, high: number): string =>
  `(${column} < ${low} OR ${column} > ${high})`;

/**
 * Migration 16: brings the turns and tool calls stored before TURN_BOUNDS existed within them (a
 * `9e18` of an imported transcript made every sum overflow), then, only when a row changed, builds
 * the rollups again from the rows (they summed the old values). Returns how many rows changed.
 */
export function boundStoredTurns(db: Db, nowMs = Date.now()): number {
  const tokens = TURN_BOUNDS.tokens;
  const first = TURN_BOUNDS.earliestMs;
  const last = nowMs + TURN_BOUNDS.aheadMs;
  const week = TURN_BOUNDS.durationMs;
  const tokenColumns = [
    'input_tokens',
    'output_tokens',
    'cache_read_tokens',
    'cache_creation_tokens',
    'reasoning_tokens',
  ];
  const turnChecks: [string, number, number][] = [
    ...tokenColumns.map((c): [string, number, number] => [c, 0, tokens]),
    ['model_calls', 0, TURN_BOUNDS.modelCalls],
    ['cost_usd', 0, TURN_BOUNDS.costUsd],
    ['started_at_ms', first, last],
    ['ended_at_ms', first, last],
    ['duration_ms', 0, week],
  ];
  const callChecks: [string, number, number][] = [
    ['started_at_ms', first, last],
    ['ended_at_ms', first, last],
    ['duration_ms', 0, week],
    ['turn_started_at_ms', first, last],
  ];
  const update = (table: string, checks: [string, number, number][]): number =>
    db
      .prepare(
        `UPDATE ${table} SET ${checks.map(([c, lo, hi]) => `${within(c, lo, hi)}`).join(', ')}
         WHERE ${checks.map(([c, lo, hi]) => outside(c, lo, hi)).join(' OR ')}`,
      )
      .run().changes;
  // A span with an end out of range lasted what is left between its ends once they are moved.
  const spans = (table: string, start: string): number =>
    db
      .prepare(
        `UPDATE ${table} SET duration_ms = MIN(${week}, MAX(0,
           MIN(${last}, MAX(${first}, ended_at_ms)) - MIN(${last}, MAX(${first}, ${start}))))
         WHERE ended_at_ms IS NOT NULL AND duration_ms IS NOT NULL
           AND (${outside(start, first, last)} OR ${outside('ended_at_ms', first, last)})`,
      )
      .run().changes;
  const changed =
    spans('turns', 'started_at_ms') +
    spans('tool_calls', 'started_at_ms') +
    update('turns', turnChecks) +
    update('tool_calls', callChecks);
  if (changed > 0) rebuildRollups(db);
  return changed;
}

/** Empties the rollups (the triggers empty the session tables kept from usage_sessions) and fills them again. */
function rebuildRollups(db: Db): void {
  db.exec(`
    DELETE FROM usage_sessions;
    DELETE FROM usage_session_days;
    DELETE FROM usage_session_values;
    DELETE FROM usage_session_spread;
    DELETE FROM usage_rollup;
    DELETE FROM usage_tool_rollup;
    ${ROLLUP_BACKFILL_SQL}
  `);
}
