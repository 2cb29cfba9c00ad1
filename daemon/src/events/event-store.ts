import type { EventSource } from '../../../contract/api.js';
import type { Db } from '../db/database.js';
import { nowIso } from '../ids.js';
import { EventArchive } from './event-archive.js';

export interface StoredEvent {
  session_id: string;
  seq: number;
  received_at_ms: number;
  source: EventSource;
  /** The line as JSON text: verbatim for the agent's own lines. */
  data: string;
}

interface EventRow {
  seq: number;
  received_at_ms: number;
  source: string;
  data: string;
}

export type EventListener = (event: StoredEvent) => void;

/**
 * Appends events with a gap-free per-session sequence, batching the writes: appends go to an
 * in-memory buffer flushed in one transaction on the next turn of the event loop (or before any
 * read, so readers always see every appended event). Listeners hear each event at once.
 */
export class EventStore {
  private readonly pending: StoredEvent[] = [];
  private readonly lastSeq = new Map<string, number>();
  private readonly listeners = new Map<string, Set<EventListener>>();
  private readonly taps = new Set<EventListener>();
  private flushScheduled = false;
  private readonly insert;
  private readonly updateLastSeq;
  private readonly selectLastSeq;
  readonly archive: EventArchive;

  constructor(
    private readonly db: Db,
    private readonly onWriteError: (error: unknown, dropped: number) => void = () => undefined,
  ) {
    this.archive = new EventArchive(db);
    this.insert = db.prepare(
      'INSERT INTO events (session_id, seq, received_at_ms, source, data) VALUES (?, ?, ?, ?, ?)',
    );
    this.updateLastSeq = db.prepare(
      'UPDATE sessions SET last_seq = ? WHERE id = ? AND last_seq < ?',
    );
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
    const seq = this.currentSeq(sessionId) + 1;
    this.lastSeq.set(sessionId, seq);
    const event: StoredEvent = {
      session_id: sessionId,
      seq,
      received_at_ms: receivedAtMs,
      source,
      data,
    };
    this.pending.push(event);
    this.scheduleFlush();
    for (const listener of this.listeners.get(sessionId) ?? []) listener(event);
    for (const tap of this.taps) tap(event);
    return event;
  }

  appendJson(sessionId: string, source: EventSource, value: unknown): StoredEvent {
    return this.append(sessionId, source, JSON.stringify(value));
  }

  currentSeq(sessionId: string): number {
    let seq = this.lastSeq.get(sessionId);
    if (seq === undefined) {
      seq = (this.selectLastSeq.get({ id: sessionId }) as { seq: number }).seq;
      this.lastSeq.set(sessionId, seq);
    }
    return seq;
  }

  /** Writes every buffered event in one transaction. */
  flush(): void {
    if (this.pending.length === 0) return;
    const batch = this.pending.splice(0, this.pending.length);
    try {
      this.write(batch);
    } catch (error: unknown) {
      // A row the database refuses (a sequence taken by a hand-made edit of the file, a full disk)
      // must not take the daemon down: keep every row it accepts, and say what was lost.
      let dropped = 0;
      for (const event of batch) {
        try {
          this.write([event]);
        } catch {
          dropped++;
        }
      }
      this.onWriteError(error, dropped);
    }
  }

  private write(batch: StoredEvent[]): void {
    const highest = new Map<string, number>();
    this.db.transaction(() => {
      for (const e of batch) {
        this.insert.run(e.session_id, e.seq, e.received_at_ms, e.source, e.data);
        highest.set(e.session_id, e.seq);
      }
      for (const [sessionId, seq] of highest) this.updateLastSeq.run(seq, sessionId, seq);
    })();
  }

  listenerCount(sessionId: string): number {
    return this.listeners.get(sessionId)?.size ?? 0;
  }

  /** Hears every event of every session as it is appended (metrics, audit). */
  tap(listener: EventListener): () => void {
    this.taps.add(listener);
    return () => this.taps.delete(listener);
  }

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
  read(
    sessionId: string,
    range: { after?: number; before?: number; limit: number; fromEnd?: boolean },
  ): StoredEvent[] {
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
      .all(sessionId, after, before, range.limit) as EventRow[];
    if (range.fromEnd) rows.reverse();
    return rows.map((row) => ({
      session_id: sessionId,
      ...row,
      source: row.source as EventSource,
    }));
  }

  firstSeq(sessionId: string): number | null {
    this.flush();
    if (this.archive.has(sessionId)) return this.archive.load(sessionId)[0]?.seq ?? null;
    const row = this.db
      .prepare('SELECT MIN(seq) AS seq FROM events WHERE session_id = ?')
      .get(sessionId) as {
      seq: number | null;
    };
    return row.seq;
  }

  /** A compressed conversation read through the same paging, from its archive. */
  private readArchived(
    sessionId: string,
    range: { after?: number; before?: number; limit: number; fromEnd?: boolean },
  ): StoredEvent[] {
    const after = range.after ?? 0;
    const before = range.before ?? Number.MAX_SAFE_INTEGER;
    const inRange = this.archive.load(sessionId).filter((e) => e.seq > after && e.seq < before);
    return range.fromEnd
      ? inRange.slice(Math.max(0, inRange.length - range.limit))
      : inRange.slice(0, range.limit);
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      this.flush();
    });
  }
}

/**
 * One event as JSON text. The stored `data` is embedded as is, so an agent's line reads back
 * byte for byte as it was printed.
 */
export function eventJson(event: StoredEvent): string {
  return `{"seq":${event.seq},"received_at":"${nowIso(event.received_at_ms)}","received_at_ms":${event.received_at_ms},"source":"${event.source}","data":${event.data}}`;
}
