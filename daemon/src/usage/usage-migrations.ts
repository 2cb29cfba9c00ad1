import type { Migration } from '../db/database.js';
import {
  ROLLUP_BACKFILL_SQL,
  ROLLUP_TABLES_SQL,
  SESSION_DAYS_SQL,
  SESSION_SPREAD_SQL,
} from './rollup-schema.js';
import { boundStoredTurns } from './stored-turn-bounds.js';

/**
 * The usage feature's migrations: the rollups and bounds built from its own code. Their versions
 * interleave with db/migrations.ts; daemon/src/schema.ts applies both lists in version order.
 */
export const USAGE_MIGRATIONS: Migration[] = [
  {
    version: 5,
    name: 'usage-rollups',
    sql: `${ROLLUP_TABLES_SQL}\n${ROLLUP_BACKFILL_SQL}`,
  },
  {
    version: 12,
    name: 'usage-session-days',
    sql: SESSION_DAYS_SQL,
  },
  {
    version: 13,
    name: 'usage-session-spread',
    sql: SESSION_SPREAD_SQL,
  },
  {
    version: 16,
    name: 'turn-bounds',
    // Values stored before the turn writer bounded them (an imported 9e18 overflowed every sum).
    sql: '',
    after: (db) => void boundStoredTurns(db),
  },
];
