import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { waitFor } from '../testing/harness.js';
import { startCheckpointer } from './checkpointer.js';
import { openDatabase } from './database.js';
import { SCHEMA } from '../schema.js';

describe('checkpointer', () => {
  it('copies the WAL into the database file from its worker, never from the writer', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'relais-checkpoint-'));
    const file = join(dir, 'relais.db');
    const db = openDatabase(file, SCHEMA);
    // The worker's first copy comes after 1.5 s: the commits below (well under that, even on a
    // loaded machine) are all in before it can run, so what the file shows then is the writer's.
    const checkpointer = startCheckpointer(db, file, 1_500);
    try {
      db.exec('CREATE TABLE blobs (body BLOB)');
      const insert = db.prepare('INSERT INTO blobs VALUES (?)');
      const before = statSync(file).size;
      // 8 MB in many commits: under the writer's own threshold, so only the worker copies them.
      for (let i = 0; i < 64; i++) db.transaction(() => insert.run(Buffer.alloc(128 * 1024, i)))();
      assert.ok(statSync(file).size < before + 8e6, 'the commits alone leave the file as it was');
      await waitFor(
        'the worker to copy the WAL',
        () => statSync(file).size >= before + 8e6,
        10_000,
      );
      await checkpointer.stop();
      db.close();
      assert.equal(existsSync(`${file}-wal`), false, 'the serving connection closed last');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
