import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openDatabase, type Db } from '../db/database.js';
import { insertSessionRow } from '../testing/fixtures.js';
import { EventStore, eventJson, type EventRange } from './event-store.js';
import { SCHEMA } from '../schema.js';
import { SessionMarksRepo } from '../sessions/session-marks-repo.js';

const eventStoreOf = (db: Db): EventStore => new EventStore(db, new SessionMarksRepo(db));

function freshStore(): { store: EventStore; file: string; sessionId: string } {
  const file = join(mkdtempSync(join(tmpdir(), 'relais-events-')), 'relais.db');
  const db = openDatabase(file, SCHEMA);
  return {
    store: new EventStore(db, new SessionMarksRepo(db)),
    file,
    sessionId: insertSessionRow(db),
  };
}

describe('event store', () => {
  it('held appends wait for the release (or a read), and writes alongside share their transaction', async () => {
    const { store, sessionId } = freshStore();
    const told: number[] = [];
    store.subscribe(sessionId, (event) => told.push(event.seq));
    const inTransaction: boolean[] = [];
    const db = (store as unknown as { db: { inTransaction: boolean } }).db;
    store.writeAlongside(() => inTransaction.push(db.inTransaction));
    const release = store.hold();
    store.append(sessionId, 'agent', '{"n":1}');
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(told, [], 'held past the next turns of the event loop');
    assert.equal(store.read(sessionId, { limit: 10 }).length, 1, 'a read writes what is held');
    assert.deepEqual(told, [1]);
    store.append(sessionId, 'agent', '{"n":2}');
    release();
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(told, [1, 2], 'written once released');
    assert.deepEqual(inTransaction, [true, true]);
  });

  it('events stored before migration 11 are kept in order, and a seq is still taken once', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'relais-events-')), 'relais.db');
    const before = openDatabase(
      file,
      SCHEMA.filter((m) => m.version < 11),
    );
    const sessions = [insertSessionRow(before), insertSessionRow(before)];
    const old = new EventStore(before, new SessionMarksRepo(before));
    for (let i = 0; i < 50; i++) for (const id of sessions) old.append(id, 'agent', `{"n":${i}}`);
    old.flush();
    before.close();
    const db = openDatabase(file, SCHEMA);
    const store = new EventStore(db, new SessionMarksRepo(db));
    for (const id of sessions) {
      assert.deepEqual(
        store.read(id, { limit: 100 }).map((e) => [e.seq, e.data]),
        Array.from({ length: 50 }, (_, i) => [i + 1, `{"n":${i}}`]),
      );
    }
    assert.throws(
      () =>
        db
          .prepare(
            "INSERT INTO events (session_id, seq, received_at_ms, source, data) VALUES (?, 1, 0, 'agent', '{}')",
          )
          .run(sessions[0]),
      /UNIQUE/,
    );
    store.append(sessions[0]!, 'agent', '{"after":true}');
    assert.equal(store.currentSeq(sessions[0]!), 51);
  });

  it('numbers events per session without gaps, and persists them in batches', () => {
    const { store, file, sessionId } = freshStore();
    const other = insertSessionRow(
      (store as unknown as { db: ReturnType<typeof openDatabase> }).db,
    );
    for (let i = 0; i < 1000; i++) {
      store.append(sessionId, 'agent', `{"n":${i}}`);
      if (i % 3 === 0) store.append(other, 'relais', `{"m":${i}}`);
    }
    store.flush();
    const reopened = eventStoreOf(openDatabase(file, SCHEMA));
    const all = reopened.read(sessionId, { limit: 5000 });
    assert.deepEqual(
      all.map((e) => e.seq),
      Array.from({ length: 1000 }, (_, i) => i + 1),
    );
    assert.equal(reopened.read(other, { limit: 5000 }).length, 334);
    assert.equal(reopened.currentSeq(sessionId), 1000, 'the counter resumes after a restart');
  });

  it('reads see events not yet flushed', () => {
    const { store, sessionId } = freshStore();
    store.append(sessionId, 'agent', '{"a":1}');
    assert.equal(store.read(sessionId, { limit: 10 }).length, 1);
  });

  it('pages forwards, backwards and from the end', () => {
    const { store, sessionId } = freshStore();
    for (let i = 1; i <= 25; i++) store.append(sessionId, 'agent', `{"i":${i}}`);
    assert.deepEqual(
      store.read(sessionId, { after: 20, limit: 10 }).map((e) => e.seq),
      [21, 22, 23, 24, 25],
    );
    assert.deepEqual(
      store.read(sessionId, { before: 6, limit: 3, fromEnd: true }).map((e) => e.seq),
      [3, 4, 5],
    );
    assert.deepEqual(
      store.read(sessionId, { limit: 4, fromEnd: true }).map((e) => e.seq),
      [22, 23, 24, 25],
    );
    assert.equal(store.firstSeq(sessionId), 1);
  });

  it('a page stops before the event that would take it past its weight, from the file or the archive', async () => {
    const { store, sessionId } = freshStore();
    const heavy = (i: number, chars: number) => JSON.stringify({ i, text: 'x'.repeat(chars) });
    // Seqs 1-4 light, 5-8 of 400 chars each, 9 of 1,000 alone, 10-12 light.
    for (let i = 1; i <= 12; i++)
      store.append(
        sessionId,
        'agent',
        i >= 5 && i <= 8 ? heavy(i, 400) : i === 9 ? heavy(i, 1000) : `{"i":${i}}`,
      );
    const pages = (range: Omit<EventRange, 'limit'>) => {
      const seen: number[][] = [];
      let cursor = range;
      for (;;) {
        const page = store.readPage(sessionId, { ...cursor, limit: 100, maxChars: 1000 });
        seen.push(page.items.map((e) => e.seq));
        if (!page.more) return seen;
        cursor = range.fromEnd
          ? { fromEnd: true, before: page.items[0]!.seq }
          : { after: page.items.at(-1)!.seq };
      }
    };
    const check = (label: string) => {
      assert.deepEqual(
        pages({}),
        [[1, 2, 3, 4, 5, 6], [7, 8], [9], [10, 11, 12]],
        `${label} forwards`,
      );
      assert.deepEqual(
        pages({ fromEnd: true }),
        [[10, 11, 12], [9], [7, 8], [1, 2, 3, 4, 5, 6]],
        `${label} from the end`,
      );
    };
    check('file');
    assert.equal(store.readPage(sessionId, { limit: 3, maxChars: 1e6 }).more, true);
    assert.equal(store.readPage(sessionId, { after: 10, limit: 3, maxChars: 1e6 }).more, false);
    await store.archive.compress(sessionId);
    check('archive');
  });

  it('keeps the agent line byte for byte', () => {
    const { store, sessionId } = freshStore();
    const line = '{"type":"assistant","z":1,"a":[1.50,"é\\u00e9"],"n":null}';
    const event = store.append(sessionId, 'agent', line);
    assert.ok(eventJson(event).endsWith(`"data":${line}}`));
    assert.equal(store.read(sessionId, { limit: 1 })[0]!.data, line);
  });
});

describe('event store: nothing is told before it is committed', () => {
  /** What another connection to the file sees: the state a crash of this process would leave. */
  function survivor(file: string): (sessionId: string, seq: number) => string | undefined {
    const other = openDatabase(file, SCHEMA);
    const select = other.prepare('SELECT data FROM events WHERE session_id = ? AND seq = ?');
    return (sessionId, seq) => (select.get(sessionId, seq) as { data: string } | undefined)?.data;
  }

  it('a listener hears an event only once another connection can read it', async () => {
    const { store, file, sessionId } = freshStore();
    const stored = survivor(file);
    const heard: [number, string | undefined][] = [];
    store.subscribe(sessionId, (e) => heard.push([e.seq, stored(sessionId, e.seq)]));
    const tapped: number[] = [];
    store.tap((e) => tapped.push(e.seq));
    store.append(sessionId, 'agent', '{"a":1}');
    store.append(sessionId, 'agent', '{"a":2}');
    assert.deepEqual(heard, [], 'told before the batch was written');
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(heard, [
      [1, '{"a":1}'],
      [2, '{"a":2}'],
    ]);
    assert.deepEqual(tapped, [1, 2]);
  });

  it('currentSeq never names a seq that is not stored', () => {
    const { store, file, sessionId } = freshStore();
    const stored = survivor(file);
    store.append(sessionId, 'agent', '{"a":1}');
    const seq = store.currentSeq(sessionId);
    assert.equal(seq, 1);
    assert.equal(stored(sessionId, seq), '{"a":1}');
  });

  it('after a crash the sequence resumes from what is stored, and nothing lost was told', () => {
    const { store, file, sessionId } = freshStore();
    const heard: number[] = [];
    store.subscribe(sessionId, (e) => heard.push(e.seq));
    store.append(sessionId, 'agent', '{"kept":1}');
    store.flush();
    store.append(sessionId, 'agent', '{"lost":2}'); // The process dies before its batch is written.
    const restarted = eventStoreOf(openDatabase(file, SCHEMA));
    assert.equal(restarted.currentSeq(sessionId), 1);
    assert.equal(restarted.append(sessionId, 'relais', '{"after":1}').seq, 2);
    assert.deepEqual(heard, [1], 'the lost event was never told');
  });

  it('a listener that reads while telling does not reorder what others hear', () => {
    const { store, sessionId } = freshStore();
    const order: number[] = [];
    store.subscribe(sessionId, (e) => {
      if (e.seq === 1) {
        store.append(sessionId, 'relais', '{"echo":1}');
        store.read(sessionId, { limit: 10 }); // Flushes seq 3 while seq 2 is still untold.
      }
    });
    store.subscribe(sessionId, (e) => order.push(e.seq));
    store.append(sessionId, 'agent', '{"a":1}');
    store.append(sessionId, 'agent', '{"a":2}');
    store.flush();
    assert.deepEqual(order, [1, 2, 3]);
  });

  it('a failing listener is reported and the others still hear every event', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'relais-events-')), 'relais.db');
    const db = openDatabase(file, SCHEMA);
    const sessionId = insertSessionRow(db);
    const failures: unknown[] = [];
    const store = new EventStore(db, new SessionMarksRepo(db), undefined, (error) =>
      failures.push(error),
    );
    const heard: number[] = [];
    store.subscribe(sessionId, () => {
      throw new Error('listener bug');
    });
    store.subscribe(sessionId, (e) => heard.push(e.seq));
    store.append(sessionId, 'agent', '{"a":1}');
    store.append(sessionId, 'agent', '{"a":2}');
    store.flush();
    assert.deepEqual(heard, [1, 2]);
    assert.equal(failures.length, 2);
  });

  it('inside another transaction nothing is written or told until it commits', () => {
    const { store, sessionId } = freshStore();
    const db = (store as unknown as { db: ReturnType<typeof openDatabase> }).db;
    const heard: number[] = [];
    store.subscribe(sessionId, (e) => heard.push(e.seq));
    store.append(sessionId, 'agent', '{"a":1}');
    assert.throws(() =>
      db.transaction(() => {
        assert.equal(store.currentSeq(sessionId), 0);
        throw new Error('rolled back');
      })(),
    );
    assert.deepEqual(heard, []);
    assert.equal(store.currentSeq(sessionId), 1);
    assert.deepEqual(heard, [1]);
  });
});

describe('event store write failures', () => {
  it('a refused row does not take the others down, and is reported', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'relais-events-')), 'relais.db');
    const db = openDatabase(file, SCHEMA);
    const sessionId = insertSessionRow(db);
    const errors: number[] = [];
    const store = new EventStore(db, new SessionMarksRepo(db), (_error, dropped) =>
      errors.push(dropped),
    );
    store.append(sessionId, 'agent', '{"a":1}');
    store.flush();
    // Someone else wrote seq 3 behind the store's back.
    db.prepare(
      "INSERT INTO events (session_id, seq, received_at_ms, source, data) VALUES (?, 3, 0, 'agent', '{}')",
    ).run(sessionId);
    for (let i = 0; i < 3; i++) store.append(sessionId, 'agent', `{"b":${i}}`);
    assert.doesNotThrow(() => store.flush());
    assert.deepEqual(errors, [1]);
    assert.deepEqual(
      store.read(sessionId, { limit: 10 }).map((e) => e.seq),
      [1, 2, 3, 4],
    );
  });

  it('among events written many to a statement, a refused row costs that row only', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'relais-events-')), 'relais.db');
    const db = openDatabase(file, SCHEMA);
    const sessionId = insertSessionRow(db);
    const errors: number[] = [];
    const store = new EventStore(db, new SessionMarksRepo(db), (_error, dropped) =>
      errors.push(dropped),
    );
    store.append(sessionId, 'agent', '{"i":1}', 1_001);
    store.flush();
    // Someone else wrote seq 70 behind the store's back: it falls in the second statement of 64.
    db.prepare(
      "INSERT INTO events (session_id, seq, received_at_ms, source, data) VALUES (?, 70, 0, 'agent', '{}')",
    ).run(sessionId);
    for (let i = 2; i <= 150; i++)
      store.append(sessionId, i % 2 ? 'agent' : 'relais', `{"i":${i}}`, 1_000 + i);
    store.flush();
    assert.deepEqual(errors, [1]);
    const stored = store.read(sessionId, { limit: 200 });
    assert.equal(stored.length, 150);
    for (const e of stored) {
      const i = e.seq;
      if (i === 70) assert.deepEqual([e.data, e.received_at_ms], ['{}', 0]);
      else
        assert.deepEqual(
          [e.data, e.received_at_ms, e.source],
          [`{"i":${i}}`, 1_000 + i, i % 2 ? 'agent' : 'relais'],
        );
    }
  });
});
