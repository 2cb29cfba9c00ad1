import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openDatabase } from './db/database.js';
import { CORE_MIGRATIONS } from './db/migrations.js';
import { SCHEMA } from './schema.js';
import { USAGE_MIGRATIONS } from './usage/usage-migrations.js';

describe('schema: the database migrations and the features', () => {
  it('numbers every migration once, from 1 with no gap, whichever folder contributes it', () => {
    const versions = SCHEMA.map((m) => m.version);
    assert.deepEqual(
      versions,
      versions.map((_, i) => i + 1),
    );
    assert.equal(SCHEMA.length, CORE_MIGRATIONS.length + USAGE_MIGRATIONS.length);
  });

  it('builds the usage rollups when applied in order to a new file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'relais-schema-'));
    try {
      const db = openDatabase(join(dir, 'relais.db'), SCHEMA);
      const applied = db.prepare('SELECT version FROM schema_migrations ORDER BY version').all();
      assert.equal(applied.length, SCHEMA.length);
      const tables = db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'usage_%'")
        .all();
      assert.ok(tables.length > 0, 'the usage feature contributed its tables');
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
