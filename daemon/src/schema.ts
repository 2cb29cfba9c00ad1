import type { Migration } from './db/database.js';
import { CORE_MIGRATIONS } from './db/migrations.js';
import { USAGE_MIGRATIONS } from './usage/usage-migrations.js';

/**
 * The whole schema: the database's own migrations and those each feature contributes, in version
 * order. db/ imports no feature; the composition root (and the tests) open the file with this.
 */
export const SCHEMA: readonly Migration[] = [...CORE_MIGRATIONS, ...USAGE_MIGRATIONS].sort(
  (a, b) => a.version - b.version,
);
