import assert from 'node:assert/strict';
import { mkdtempSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openDatabase } from '../db/database.js';
import { SCHEMA } from '../schema.js';
import { insertSessionRow } from '../testing/fixtures.js';
import { tableBytes } from './table-bytes.js';
import { TABLE_BYTES_SQL, type TableBytes } from './table-bytes-sql.js';

const byName = (rows: TableBytes[]): TableBytes[] =>
  [...rows].sort((a, b) => a.name.localeCompare(b.name));

function databaseWithEvents(): ReturnType<typeof openDatabase> {
  const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'relais-bytes-')), 'relais.db'), SCHEMA);
  const sessionId = insertSessionRow(db);
  const insert = db.prepare(
    "INSERT INTO events (session_id, seq, received_at_ms, source, data) VALUES (?, ?, 0, 'agent', ?)",
  );
  // Texts that overflow their page: the walk has overflow pages to count too.
  for (let seq = 1; seq <= 200; seq++) insert.run(sessionId, seq, 'x'.repeat(9_000 + seq));
  return db;
}

describe('table bytes, measured apart', () => {
  it('a worker thread measures the same pages as the daemon would, committed writes included', async () => {
    const db = databaseWithEvents();
    const apart = await tableBytes(db);
    assert.deepEqual(byName(apart), byName(db.prepare(TABLE_BYTES_SQL).all() as TableBytes[]));
    const events = apart.find((row) => row.name === 'events');
    assert.ok(events && events.bytes > 200 * 9_000, `events: ${events?.bytes}`);
  });

  it('a file the thread cannot open is an error, never figures of zero', async () => {
    const db = databaseWithEvents();
    renameSync(db.name, `${db.name}.moved`);
    await assert.rejects(tableBytes(db));
  });

  it('a database in memory (no other connection can open it) is measured in place', async () => {
    const db = openDatabase(':memory:', SCHEMA);
    const rows = await tableBytes(db);
    assert.ok(rows.some((row) => row.name === 'events'));
  });
});
