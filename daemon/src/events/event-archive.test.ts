import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { brotliCompressSync } from 'node:zlib';
import { openDatabase, type Db } from '../db/database.js';
import { SCHEMA } from '../schema.js';
import { SessionMarksRepo } from '../sessions/session-marks-repo.js';
import { insertSessionRow } from '../testing/fixtures.js';
import { EventStore, type EventRange } from './event-store.js';

function storeWith(events: number): { store: EventStore; db: Db; sessionId: string } {
  const db = openDatabase(
    join(mkdtempSync(join(tmpdir(), 'relais-archive-')), 'relais.db'),
    SCHEMA,
  );
  const store = new EventStore(db, new SessionMarksRepo(db));
  const sessionId = insertSessionRow(db);
  // Mostly light lines, every 50th a heavy one (40 kB), some beyond the BMP: several chunks.
  for (let i = 1; i <= events; i++)
    store.append(
      sessionId,
      'agent',
      JSON.stringify({ i, text: i % 50 === 0 ? 'é'.repeat(40_000) : `line ${i} 🚀` }),
    );
  store.flush();
  return { store, db, sessionId };
}

/** Every page of the conversation, both ways, with and without a weight limit: what a reader gets. */
function allPages(store: EventStore, sessionId: string): string[] {
  const seen: string[] = [];
  for (const fromEnd of [false, true])
    for (const maxChars of [Infinity, 100_000]) {
      let range: Omit<EventRange, 'limit'> = { fromEnd, maxChars };
      for (;;) {
        const page = store.readPage(sessionId, { ...range, limit: 97 });
        seen.push(JSON.stringify(page));
        if (!page.more || page.items.length === 0) break;
        range = fromEnd
          ? { fromEnd, maxChars, before: page.items[0]!.seq }
          : { maxChars, after: page.items.at(-1)!.seq };
      }
    }
  return seen;
}

const count = (db: Db, sql: string, id: string): number =>
  (db.prepare(sql).get(id) as { n: number }).n;

describe('compressed conversations, in chunks', () => {
  it('read back byte for byte in every page, from chunks of about a megabyte, the hot events gone', async () => {
    const { store, db, sessionId } = storeWith(2_600);
    const before = allPages(store, sessionId);
    const moved = await store.archive.compress(sessionId);
    assert.equal(moved.events, 2_600);
    assert.ok(moved.bytes < moved.rawBytes / 4, `${moved.bytes} of ${moved.rawBytes}`);
    assert.equal(count(db, 'SELECT COUNT(*) AS n FROM events WHERE session_id = ?', sessionId), 0);
    const chunks = count(
      db,
      'SELECT COUNT(*) AS n FROM event_archive_chunks WHERE session_id = ?',
      sessionId,
    );
    assert.ok(chunks >= 4, `${chunks} chunks`);
    assert.deepEqual(allPages(store, sessionId), before);
    assert.equal(store.firstSeq(sessionId), 1);
    assert.equal(store.currentSeq(sessionId), 2_600);
  });

  it('a compress lets the daemon answer between chunks; the conversation reads whole all along', async () => {
    const { store, sessionId } = storeWith(1_500);
    const whole = JSON.stringify(store.read(sessionId, { limit: 5_000 }));
    let readMeanwhile = '';
    const compressing = store.archive.compress(sessionId);
    assert.equal(store.archive.compress(sessionId), compressing, 'one compress at a time');
    setImmediate(() => (readMeanwhile = JSON.stringify(store.read(sessionId, { limit: 5_000 }))));
    await compressing;
    assert.equal(readMeanwhile, whole, 'read while it was being compressed');
    assert.equal(JSON.stringify(store.read(sessionId, { limit: 5_000 })), whole);
  });

  it('the last page opens the last chunk, not the whole conversation', async () => {
    const { store, sessionId } = storeWith(2_600);
    await store.archive.compress(sessionId);
    const opened = (store.archive as unknown as { chunks: Map<string, unknown> }).chunks;
    opened.clear();
    const tail = store.readPage(sessionId, { limit: 20, fromEnd: true });
    assert.deepEqual(
      tail.items.map((e) => e.seq),
      Array.from({ length: 20 }, (_, i) => 2_581 + i),
    );
    assert.equal(opened.size, 1);
  });

  it('chunks a compress left when the daemon stopped are dropped by the next; one deleted meanwhile stays deleted', async () => {
    const { store, db, sessionId } = storeWith(600);
    const whole = JSON.stringify(store.read(sessionId, { limit: 5_000 }));
    // What a daemon killed between two chunks leaves: a chunk, no archive row, the events hot.
    db.prepare(
      `INSERT INTO event_archive_chunks (session_id, first_seq, last_seq, event_count, raw_bytes, compressed)
       VALUES (?, 1, 3, 3, 9, ?)`,
    ).run(sessionId, brotliCompressSync(Buffer.from('[[1,0,"agent","{\\"stale\\":1}"]]')));
    assert.equal(JSON.stringify(store.read(sessionId, { limit: 5_000 })), whole, 'still hot');
    await store.archive.compress(sessionId);
    assert.equal(JSON.stringify(store.read(sessionId, { limit: 5_000 })), whole);

    const other = storeWith(600);
    const compressing = other.store.archive.compress(other.sessionId);
    other.store.archive.delete(other.sessionId);
    await compressing;
    assert.equal(other.store.archive.has(other.sessionId), false);
    assert.equal(
      count(
        other.db,
        'SELECT COUNT(*) AS n FROM event_archive_chunks WHERE session_id = ?',
        other.sessionId,
      ),
      0,
    );
    assert.deepEqual(other.store.read(other.sessionId, { limit: 10 }), []);
  });

  it('an archive written whole (before the chunks) still reads, and joins the chunks when more is compressed', async () => {
    const { store, db, sessionId } = storeWith(300);
    const rows = store
      .read(sessionId, { limit: 1_000 })
      .map((e) => [e.seq, e.received_at_ms, e.source, e.data]);
    const before = allPages(store, sessionId);
    db.prepare(
      `INSERT INTO event_archives (session_id, first_seq, last_seq, event_count, raw_bytes, compressed, compressed_at)
       VALUES (?, 1, 300, 300, 0, ?, '2026-01-01T00:00:00.000Z')`,
    ).run(sessionId, brotliCompressSync(Buffer.from(JSON.stringify(rows))));
    db.prepare('DELETE FROM events WHERE session_id = ?').run(sessionId);
    assert.deepEqual(allPages(store, sessionId), before);
    // Lines written after it (late ones) are compressed with it, into chunks.
    store.append(sessionId, 'agent', '{"late":true}');
    store.flush();
    await store.archive.compress(sessionId);
    const after = store.read(sessionId, { limit: 1_000 });
    assert.equal(after.length, 301);
    assert.equal(after.at(-1)!.data, '{"late":true}');
    assert.equal(
      count(
        db,
        'SELECT COUNT(*) AS n FROM event_archives WHERE session_id = ? AND length(compressed) > 0',
        sessionId,
      ),
      0,
      'the whole blob is gone into chunks',
    );
  });
});
