import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openDatabase } from '../db/database.js';
import { insertSessionRow } from '../testing/fixtures.js';
import { SCHEMA } from '../schema.js';
import { SessionMarksRepo } from '../sessions/session-marks-repo.js';
import { EventStore } from './event-store.js';
import { OutlineIndex, type OutlineReader } from './outline.js';

/** A turn per event whose data says `{"turn": …}`; the rest add nothing. */
const readTurns: OutlineReader = (event) => {
  const data = JSON.parse(event.data) as { turn?: string };
  return data.turn === undefined ? null : { turn: data.turn };
};

function storeWith(events: number): { store: EventStore; sessionId: string } {
  const db = openDatabase(
    join(mkdtempSync(join(tmpdir(), 'relais-outline-')), 'relais.db'),
    SCHEMA,
  );
  const store = new EventStore(db, new SessionMarksRepo(db));
  const sessionId = insertSessionRow(db);
  for (let i = 1; i <= events; i++)
    store.appendJson(sessionId, 'agent', i % 100 === 1 ? { turn: `turn at ${i}` } : { n: i });
  return { store, sessionId };
}

describe('conversation outline index', () => {
  it('a first look lets the daemon answer between pages, and looks that come meanwhile share it', async () => {
    const { store, sessionId } = storeWith(2_000);
    const index = new OutlineIndex(store);
    let reads = 0;
    const counting: OutlineReader = (event) => (reads++, readTurns(event));
    // Something else the daemon has to do, asked just after the look: it must not wait for all of it.
    let answeredWhileBuilding = false;
    const first = index.get(sessionId, counting);
    const second = index.get(sessionId, counting);
    setImmediate(() => (answeredWhileBuilding = reads < 2_000));
    const [a, b] = await Promise.all([first, second]);
    assert.ok(answeredWhileBuilding, 'another task ran before the whole conversation was read');
    assert.equal(a, b, 'one build for both looks');
    assert.equal(reads, 2_000, 'each event read once');
    assert.equal(a.turns.length, 20);
    assert.equal(a.last_seq, 2_000);
  });

  it('events added while a first look goes on are in it; a later look reads only what is new', async () => {
    const { store, sessionId } = storeWith(1_200);
    const index = new OutlineIndex(store);
    let reads = 0;
    const counting: OutlineReader = (event) => (reads++, readTurns(event));
    const building = index.get(sessionId, counting);
    setImmediate(() => store.appendJson(sessionId, 'agent', { turn: 'added meanwhile' }));
    const outline = await building;
    assert.equal(outline.last_seq, 1_201);
    assert.equal(outline.turns.at(-1)?.text, 'added meanwhile');
    store.appendJson(sessionId, 'agent', { turn: 'later' });
    reads = 0;
    const later = await index.get(sessionId, counting);
    assert.equal(reads, 1);
    assert.deepEqual(
      later.turns.slice(-2).map((turn) => [turn.turn, turn.text]),
      [
        [13, 'added meanwhile'],
        [14, 'later'],
      ],
    );
  });
});
