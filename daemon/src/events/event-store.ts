import type Database from 'better-sqlite3';
import type { EventSource } from '../../../contract/api.js';
import type { Db } from '../db/database.js';
import { nowIso } from '../ids.js';
import { clipEvent } from './clip.js';
import { EventArchive } from './event-archive.js';
import type { SessionMarks } from './session-marks.js';
import type { StoredEvent } from './stored-event.js';

export type { StoredEvent } from './stored-event.js';

interface EventRow {
  seq: number;
  received_at_ms: number;
  source: string;
  data: string;
}

export type EventListener = (event: StoredEvent) => void;

export interface EventRange {
  after?: number;
  before?: number;
  limit: number;
  fromEnd?: boolean;
  /** At most this much data in all (UTF-16 units of `data`), or a single event larger than that. */
  maxChars?: number;
  /** Texts of a line longer than this are cut to it (clipEvent); `maxChars` weighs what is left. */
  clip?: number;
}

export interface EventPage {
  items: StoredEvent[];
  /** Stopped at `limit` or at `maxChars`: the range may hold more. */
  more: boolean;
}

/** Past this much data read (before clipping), a page stops too: clipping costs a parse. */
const READ_PER_PAGE_CHARS = 16_000_000;

/**
 * Takes events in the order given, clipped, as many as fit in `maxChars` (one at least), and not
 * past READ_PER_PAGE_CHARS of what was stored.
 */
function takeWithin(events: Iterable<StoredEvent>, range: EventRange): EventPage {
  const { limit, maxChars = Infinity, clip } = range;
  const items: StoredEvent[] = [];
  let chars = 0;
  let read = 0;
  for (const stored of events) {
    const event = clipEvent(stored, clip);
    if (items.length > 0 && chars + event.data.length > maxChars) return { items, more: true };
    items.push(event);
    chars += event.data.length;
    read += stored.data.length;
    if (read > READ_PER_PAGE_CHARS && items.length < limit) return { items, more: true };
  }
  return { items, more: items.length >= limit };
}

/** Rows per multi-row INSERT: a bulk write (the history import) binds 5 × this many values at once. */
const ROWS_PER_STATEMENT = 64;
const COLUMNS = 5;

/**
 * Inserts events ROWS_PER_STATEMENT at a time with one statement, prepared once, and the rest one
 * by one: each statement run has a fixed cost (binding, stepping, resetting) that a bulk import
 * otherwise paid per line.
 */
class EventRows {
  private readonly one: Database.Statement;
  private readonly many: Database.Statement;
  /** The values of one multi-row run, reused. */
  private readonly values: unknown[] = new Array(ROWS_PER_STATEMENT * COLUMNS);

  constructor(db: Db) {
    const sql = (rows: number): string =>
      'INSERT INTO events (session_id, seq, received_at_ms, source, data) VALUES ' +
      Array.from({ length: rows }, () => '(?, ?, ?, ?, ?)').join(', ');
    this.one = db.prepare(sql(1));
    this.many = db.prepare(sql(ROWS_PER_STATEMENT));
  }

  /** Inside the caller's transaction: a row refused throws, and the caller rolls back. */
  insertAll(events: readonly StoredEvent[]): void {
    let i = 0;
    for (; i + ROWS_PER_STATEMENT <= events.length; i += ROWS_PER_STATEMENT) {
      const values = this.values;
      for (let k = 0; k < ROWS_PER_STATEMENT; k++) {
        const e = events[i + k]!;
        const at = k * COLUMNS;
        values[at] = e.session_id;
        values[at + 1] = e.seq;
        values[at + 2] = e.received_at_ms;
        values[at + 3] = e.source;
        values[at + 4] = e.data;
      }
      this.many.run(values);
    }
    for (; i < events.length; i++) {
      const e = events[i]!;
      this.one.run(e.session_id, e.seq, e.received_at_ms, e.source, e.data);
    }
    // The large strings are not kept alive by the reused array until the next bulk write.
    this.values.fill(null);
  }
}

/**
 * Appends events with a gap-free per-session sequence, batching the writes: appends go to an
 * in-memory buffer flushed in one transaction on the next turn of the event loop (or before any
 * read, so readers always see every appended event).
 *
 * Listeners hear an event only once the transaction that holds it has committed. A client is then
 * never shown an event that a crash of the daemon (kill -9) could lose, and the sequence, which
 * resumes after a restart from what is stored, never gives a number a client saw to another event.
 */
export class EventStore {
  private readonly pending: StoredEvent[] = [];
  /** The last seq given out, per session: ahead of `committed` while a batch waits. */
  private readonly assigned = new Map<string, number>();
  /** The last seq durably written, per session: the only one readers are told. */
  private readonly committed = new Map<string, number>();
  private readonly listeners = new Map<string, Set<EventListener>>();
  private readonly taps = new Set<EventListener>();
  private readonly alongside = new Set<() => void>();
  private holds = 0;
  /** Committed events not yet told to the listeners, oldest first. */
  private readonly untold: StoredEvent[] = [];
  private telling = false;
  private flushScheduled = false;
  private readonly rows: EventRows;
  private readonly selectLastSeq;
  readonly archive: EventArchive;

  constructor(
    private readonly db: Db,
    private readonly marks: SessionMarks,
    private readonly onWriteError: (error: unknown, dropped: number) => void = () => undefined,
    private readonly onListenerError: (error: unknown) => void = () => undefined,
  ) {
    this.archive = new EventArchive(db, marks);
    this.rows = new EventRows(db);
    this.selectLastSeq = db.prepare(
      `SELECT MAX(COALESCE((SELECT MAX(seq) FROM events WHERE session_id = @id), 0),
                  COALESCE((SELECT last_seq FROM event_archives WHERE session_id = @id), 0)) AS seq`,
    );
  }

  append(
    sessionId: string,
    source: EventSource,
    data: string,
    receivedAtMs = Date.now(),
  ): StoredEvent {
    const seq = this.lastAssigned(sessionId) + 1;
    this.assigned.set(sessionId, seq);
    const event: StoredEvent = {
      session_id: sessionId,
      seq,
      received_at_ms: receivedAtMs,
      source,
      data,
    };
    this.pending.push(event);
    this.scheduleFlush();
    return event;
  }

  appendJson(sessionId: string, source: EventSource, value: unknown): StoredEvent {
    return this.append(sessionId, source, JSON.stringify(value));
  }

  /** The session's last committed seq, after writing what is buffered: never one a crash could lose. */
  currentSeq(sessionId: string): number {
    this.flush();
    return this.lastCommitted(sessionId);
  }

  /**
   * Writes every buffered event in one transaction, then tells the listeners. Inside another
   * transaction it waits: a rollback there would take back events already told.
   */
  flush(): void {
    if (this.pending.length === 0) return;
    if (this.db.inTransaction) return this.scheduleFlush();
    const batch = this.pending.splice(0, this.pending.length);
    let written = batch;
    try {
      this.write(batch);
    } catch (error: unknown) {
      // A row the database refuses (a sequence taken by a hand-made edit of the file, a full disk)
      // must not take the daemon down: keep every row it accepts, and say what was lost.
      written = batch.filter((event) => {
        try {
          this.write([event]);
          return true;
        } catch {
          return false;
        }
      });
      this.onWriteError(error, batch.length - written.length);
    }
    for (const event of written) {
      if (event.seq > this.lastCommitted(event.session_id))
        this.committed.set(event.session_id, event.seq);
    }
    this.tell(written);
  }

  private write(batch: StoredEvent[]): void {
    const highest = new Map<string, number>();
    this.db.transaction(() => {
      this.rows.insertAll(batch);
      for (const e of batch) highest.set(e.session_id, e.seq);
      for (const [sessionId, seq] of highest) this.marks.raiseLastSeq(sessionId, seq);
      for (const write of this.alongside) write();
    })();
  }

  /**
   * Tells committed events to listeners in seq order. A listener that flushes again (by a read)
   * adds to the queue rather than telling newer events before older ones.
   */
  private tell(events: StoredEvent[]): void {
    for (const event of events) this.untold.push(event);
    if (this.telling) return;
    this.telling = true;
    try {
      for (let i = 0; i < this.untold.length; i++) {
        const event = this.untold[i]!;
        for (const listener of this.listeners.get(event.session_id) ?? [])
          this.call(listener, event);
        for (const tap of this.taps) this.call(tap, event);
      }
    } finally {
      this.untold.length = 0;
      this.telling = false;
    }
  }

  private call(listener: EventListener, event: StoredEvent): void {
    try {
      listener(event);
    } catch (error: unknown) {
      this.onListenerError(error);
    }
  }

  private lastAssigned(sessionId: string): number {
    return this.assigned.get(sessionId) ?? this.lastCommitted(sessionId);
  }

  /** Read from the file once per session: after a restart, numbering resumes from what is stored. */
  private lastCommitted(sessionId: string): number {
    let seq = this.committed.get(sessionId);
    if (seq === undefined) {
      seq = (this.selectLastSeq.get({ id: sessionId }) as { seq: number }).seq;
      this.committed.set(sessionId, seq);
    }
    return seq;
  }

  listenerCount(sessionId: string): number {
    return this.listeners.get(sessionId)?.size ?? 0;
  }

  /**
   * Keeps appended events waiting (rather than writing them on the next turn of the event loop)
   * until the returned release, or an explicit flush or read: a bulk writer's fewer, larger
   * transactions. Listeners hear them later meanwhile; the holder flushes often.
   */
  hold(): () => void {
    this.holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds--;
      this.scheduleFlush();
    };
  }

  /**
   * Runs `write` inside each batch's transaction, after its rows: what must be stored with those
   * events or not at all (where the history import has read a transcript to). It must not throw.
   */
  writeAlongside(write: () => void): () => void {
    this.alongside.add(write);
    return () => this.alongside.delete(write);
  }

  /** Hears every event of every session once it is committed (metrics, audit). */
  tap(listener: EventListener): () => void {
    this.taps.add(listener);
    return () => this.taps.delete(listener);
  }

  /** Hears a session's events once they are committed, in seq order. */
  subscribe(sessionId: string, listener: EventListener): () => void {
    let set = this.listeners.get(sessionId);
    if (!set) this.listeners.set(sessionId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(sessionId);
    };
  }

  /** Events with after < seq < before, oldest first, at most `limit`; `fromEnd` takes the newest ones. */
  read(sessionId: string, range: EventRange): StoredEvent[] {
    return this.readPage(sessionId, range).items;
  }

  /**
   * As `read`, and stops early where the next event would take the page past `maxChars` of data
   * (one event at least, so a reader always moves on): `more` tells whether the range may hold
   * more than was returned. The rows are stepped through, so an event left out is never kept.
   */
  readPage(sessionId: string, range: EventRange): EventPage {
    this.flush();
    if (this.archive.has(sessionId)) return this.readArchived(sessionId, range);
    const after = range.after ?? 0;
    const before = range.before ?? Number.MAX_SAFE_INTEGER;
    const order = range.fromEnd ? 'DESC' : 'ASC';
    const rows = this.db
      .prepare(
        `SELECT seq, received_at_ms, source, data FROM events
         WHERE session_id = ? AND seq > ? AND seq < ? ORDER BY seq ${order} LIMIT ?`,
      )
      .iterate(sessionId, after, before, range.limit) as IterableIterator<EventRow>;
    const page = takeWithin(storedEvents(sessionId, rows), range);
    if (range.fromEnd) page.items.reverse();
    return page;
  }

  firstSeq(sessionId: string): number | null {
    this.flush();
    if (this.archive.has(sessionId)) return this.archive.firstSeq(sessionId);
    const row = this.db
      .prepare('SELECT MIN(seq) AS seq FROM events WHERE session_id = ?')
      .get(sessionId) as {
      seq: number | null;
    };
    return row.seq;
  }

  /** A compressed conversation read through the same paging, from its archive's chunks. */
  private readArchived(sessionId: string, range: EventRange): EventPage {
    const after = range.after ?? 0;
    const before = range.before ?? Number.MAX_SAFE_INTEGER;
    const fromEnd = range.fromEnd ?? false;
    const events = this.archive.events(sessionId, { after, before, limit: range.limit, fromEnd });
    const page = takeWithin(events, range);
    if (fromEnd) page.items.reverse();
    return page;
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      if (this.holds === 0) this.flush();
    });
  }
}

function* storedEvents(sessionId: string, rows: Iterable<EventRow>): Generator<StoredEvent> {
  for (const row of rows)
    yield { session_id: sessionId, ...row, source: row.source as EventSource };
}

/**
 * One event as JSON text. The stored `data` is embedded as is, so an agent's line reads back
 * byte for byte as it was printed.
 */
export function eventJson(event: StoredEvent): string {
  const clipped = event.clipped ? ',"clipped":true' : '';
  return `{"seq":${event.seq},"received_at":"${nowIso(event.received_at_ms)}","received_at_ms":${event.received_at_ms},"source":"${event.source}","data":${event.data}${clipped}}`;
}
