import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openDatabase } from '../db/database.js';
import { insertSessionRow } from '../testing/fixtures.js';
import { EventStore, eventJson } from './event-store.js';

function freshStore(): { store: EventStore; file: string; sessionId: string } {
  const file = join(mkdtempSync(join(tmpdir(), 'relais-events-')), 'relais.db');
  const db = openDatabase(file);
  return { store: new EventStore(db), file, sessionId: insertSessionRow(db) };
}

describe('event store', () => {
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
    const reopened = new EventStore(openDatabase(file));
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

  it('keeps the agent line byte for byte', () => {
    const { store, sessionId } = freshStore();
    const line = '{"type":"assistant","z":1,"a":[1.50,"é\\u00e9"],"n":null}';
    const event = store.append(sessionId, 'agent', line);
    assert.ok(eventJson(event).endsWith(`"data":${line}}`));
    assert.equal(store.read(sessionId, { limit: 1 })[0]!.data, line);
  });
});

describe('event store write failures', () => {
  it('a refused row does not take the others down, and is reported', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'relais-events-')), 'relais.db');
    const db = openDatabase(file);
    const sessionId = insertSessionRow(db);
    const errors: number[] = [];
    const store = new EventStore(db, (_error, dropped) => errors.push(dropped));
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
});
