import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import type { EventSource } from '../../../contract/api.js';
import type { Db } from '../db/database.js';
import { nowIso } from '../ids.js';
import type { SessionMarks } from './session-marks.js';
import type { StoredEvent } from './stored-event.js';

type Row = [seq: number, receivedAtMs: number, source: EventSource, data: string];

const compressApart = promisify(brotliCompress);
const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } };
/** A chunk holds this much event text at most (one larger event goes alone), and this many events. */
const CHUNK_CHARS = 1_000_000;
const CHUNK_EVENTS = 500;
/** Chunks kept read (about CHUNK_CHARS each): a reader paging through reads each chunk once. */
const CACHED_CHUNKS = 8;
/** Whole-conversation archives of before the chunks, kept read: they are read whole. */
const CACHED_WHOLE = 2;

/** What a compress moved: events, their text's bytes, and the bytes they take compressed. */
export interface Compressed {
  events: number;
  rawBytes: number;
  bytes: number;
}

/**
 * Finished conversations compressed, in chunks of about a megabyte of events each. The stored text
 * of every event is kept as a string, so a compressed conversation reads back byte for byte, with
 * the same sequence. In chunks because a conversation may weigh hundreds of megabytes: compressed
 * in one piece it held the daemon 5–7 s (280 MB), and read back in one piece 3.6 s and its whole
 * text in memory. Now a compress works a chunk at a time off the event loop (zlib's threads), and
 * a read opens the chunks its page needs. The archive's row (event_archives) says the conversation
 * is compressed only once all its chunks are written, in the transaction that drops its hot events;
 * chunks of a compress that did not finish are dropped by the next. Archives written whole before
 * the chunks still read, whole.
 */
export class EventArchive {
  private readonly chunks = new Map<string, StoredEvent[]>();
  private readonly wholes = new Map<string, StoredEvent[]>();
  private readonly compressing = new Map<string, Promise<Compressed>>();

  constructor(
    private readonly db: Db,
    private readonly marks: SessionMarks,
  ) {}

  has(sessionId: string): boolean {
    return (
      this.db.prepare('SELECT 1 FROM event_archives WHERE session_id = ?').get(sessionId) !==
      undefined
    );
  }

  lastSeq(sessionId: string): number {
    return this.summary(sessionId)?.last_seq ?? 0;
  }

  firstSeq(sessionId: string): number | null {
    return this.summary(sessionId)?.first_seq ?? null;
  }

  /**
   * Moves a conversation's events out of the hot table into its archive, a chunk at a time; the
   * daemon answers others between chunks. One compress of a conversation at a time.
   */
  compress(sessionId: string): Promise<Compressed> {
    const running = this.compressing.get(sessionId);
    if (running) return running;
    const work = this.compressInChunks(sessionId).finally(() => this.compressing.delete(sessionId));
    this.compressing.set(sessionId, work);
    return work;
  }

  /** Deletes a conversation's events, hot or archived; the session row and its metrics stay. */
  delete(sessionId: string): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM events WHERE session_id = ?').run(sessionId);
      this.db.prepare('DELETE FROM event_archive_chunks WHERE session_id = ?').run(sessionId);
      this.db.prepare('DELETE FROM event_archives WHERE session_id = ?').run(sessionId);
      this.marks.markConversation(sessionId, 'deleted');
    })();
    this.forget(sessionId);
  }

  /**
   * The archived events with after < seq < before, in seq order (newest first with `fromEnd`), at
   * most `limit`: only the chunks holding them are opened.
   */
  *events(
    sessionId: string,
    range: { after: number; before: number; limit: number; fromEnd: boolean },
  ): Generator<StoredEvent> {
    const { after, before, limit, fromEnd } = range;
    let given = 0;
    for (const events of this.parts(sessionId, after, before, fromEnd)) {
      const inRange = events.filter((event) => event.seq > after && event.seq < before);
      if (fromEnd) inRange.reverse();
      for (const event of inRange) {
        if (given++ >= limit) return;
        yield event;
      }
    }
  }

  /** The events of each chunk holding seqs in (after, before), in order, each opened when reached. */
  private *parts(
    sessionId: string,
    after: number,
    before: number,
    fromEnd: boolean,
  ): Generator<StoredEvent[]> {
    const whole = this.whole(sessionId);
    if (whole) {
      yield whole;
      return;
    }
    const chunks = this.db
      .prepare(
        `SELECT first_seq FROM event_archive_chunks
         WHERE session_id = ? AND last_seq > ? AND first_seq < ?
         ORDER BY first_seq ${fromEnd ? 'DESC' : 'ASC'}`,
      )
      .all(sessionId, after, before) as { first_seq: number }[];
    for (const { first_seq } of chunks) yield this.chunk(sessionId, first_seq);
  }

  private async compressInChunks(sessionId: string): Promise<Compressed> {
    const archivedTo = this.lastSeq(sessionId);
    // Chunks past the archive are a compress that did not finish (the daemon stopped meanwhile).
    this.db
      .prepare('DELETE FROM event_archive_chunks WHERE session_id = ? AND first_seq > ?')
      .run(sessionId, archivedTo);
    let after = archivedTo;
    for (
      let rows = this.hotChunk(sessionId, after);
      rows.length;
      rows = this.hotChunk(sessionId, after)
    ) {
      this.insertChunk(sessionId, rows, await compressApart(packed(rows), BROTLI));
      after = rows[rows.length - 1]![0];
    }
    return this.db.transaction(() => {
      // The hot events the chunks were made of are gone: the conversation was deleted meanwhile.
      if (after > archivedTo && !this.hotBetween(sessionId, archivedTo, after)) {
        this.db.prepare('DELETE FROM event_archive_chunks WHERE session_id = ?').run(sessionId);
        return { events: 0, rawBytes: 0, bytes: 0 };
      }
      // Written while the last chunk was compressed: few, compressed here.
      for (
        let rows = this.hotChunk(sessionId, after);
        rows.length;
        rows = this.hotChunk(sessionId, after)
      ) {
        this.insertChunk(sessionId, rows, brotliCompressSync(packed(rows), BROTLI));
        after = rows[rows.length - 1]![0];
      }
      this.moveWholeIntoChunks(sessionId);
      const totals = this.recordArchive(sessionId);
      this.db.prepare('DELETE FROM events WHERE session_id = ? AND seq <= ?').run(sessionId, after);
      this.marks.markConversation(sessionId, 'compressed');
      this.forget(sessionId);
      return totals;
    })();
  }

  /** Writes the archive's row from its chunks' totals, and returns them. */
  private recordArchive(sessionId: string): Compressed {
    const totals = this.db
      .prepare(
        `SELECT MIN(first_seq) AS first_seq, MAX(last_seq) AS last_seq, SUM(event_count) AS events,
                SUM(raw_bytes) AS rawBytes, SUM(length(compressed)) AS bytes
         FROM event_archive_chunks WHERE session_id = ?`,
      )
      .get(sessionId) as { first_seq: number | null; last_seq: number | null } & Compressed;
    this.db
      .prepare(
        `INSERT OR REPLACE INTO event_archives (session_id, first_seq, last_seq, event_count, raw_bytes, compressed, compressed_at)
         VALUES (?, ?, ?, ?, ?, x'', ?)`,
      )
      .run(
        sessionId,
        totals.first_seq ?? 0,
        totals.last_seq ?? 0,
        totals.events ?? 0,
        totals.rawBytes ?? 0,
        nowIso(),
      );
    return { events: totals.events ?? 0, rawBytes: totals.rawBytes ?? 0, bytes: totals.bytes ?? 0 };
  }

  /** The hot events after `after`, as many as make one chunk. */
  private hotChunk(sessionId: string, after: number): Row[] {
    const rows = this.db
      .prepare(
        `SELECT seq, received_at_ms, source, data FROM events
         WHERE session_id = ? AND seq > ? ORDER BY seq LIMIT ?`,
      )
      .raw()
      .iterate(sessionId, after, CHUNK_EVENTS) as IterableIterator<Row>;
    const chunk: Row[] = [];
    let chars = 0;
    for (const row of rows) {
      if (chunk.length > 0 && chars + row[3].length > CHUNK_CHARS) break;
      chunk.push(row);
      chars += row[3].length;
    }
    return chunk;
  }

  private insertChunk(sessionId: string, rows: Row[], blob: Buffer): void {
    const rawBytes = rows.reduce((sum, row) => sum + Buffer.byteLength(row[3]), 0);
    this.db
      .prepare(
        `INSERT OR REPLACE INTO event_archive_chunks (session_id, first_seq, last_seq, event_count, raw_bytes, compressed)
         VALUES (?, ?, ?, ?, ?, ?)`,
      )
      .run(sessionId, rows[0]![0], rows[rows.length - 1]![0], rows.length, rawBytes, blob);
  }

  /** A whole-conversation archive of before the chunks, recompressed: its events join the chunks. */
  private moveWholeIntoChunks(sessionId: string): void {
    const whole = this.whole(sessionId);
    if (!whole) return;
    for (let start = 0; start < whole.length; start += CHUNK_EVENTS) {
      const rows = whole
        .slice(start, start + CHUNK_EVENTS)
        .map((e): Row => [e.seq, e.received_at_ms, e.source, e.data]);
      this.insertChunk(sessionId, rows, brotliCompressSync(packed(rows), BROTLI));
    }
  }

  private chunk(sessionId: string, firstSeq: number): StoredEvent[] {
    const key = `${sessionId}\u0000${firstSeq}`;
    const cached = this.chunks.get(key);
    if (cached) return cached;
    const row = this.db
      .prepare('SELECT compressed FROM event_archive_chunks WHERE session_id = ? AND first_seq = ?')
      .get(sessionId, firstSeq) as { compressed: Buffer } | undefined;
    const events = row ? eventsOf(sessionId, row.compressed) : [];
    return remember(this.chunks, key, events, CACHED_CHUNKS);
  }

  /** The events of a whole-conversation archive (written before the chunks); null for chunks. */
  private whole(sessionId: string): StoredEvent[] | null {
    const cached = this.wholes.get(sessionId);
    if (cached) return cached;
    const row = this.db
      .prepare(
        'SELECT compressed FROM event_archives WHERE session_id = ? AND length(compressed) > 0',
      )
      .get(sessionId) as { compressed: Buffer } | undefined;
    return row
      ? remember(this.wholes, sessionId, eventsOf(sessionId, row.compressed), CACHED_WHOLE)
      : null;
  }

  private summary(sessionId: string): { first_seq: number; last_seq: number } | undefined {
    return this.db
      .prepare('SELECT first_seq, last_seq FROM event_archives WHERE session_id = ?')
      .get(sessionId) as { first_seq: number; last_seq: number } | undefined;
  }

  private hotBetween(sessionId: string, after: number, upTo: number): boolean {
    return (
      this.db
        .prepare('SELECT 1 FROM events WHERE session_id = ? AND seq > ? AND seq <= ? LIMIT 1')
        .get(sessionId, after, upTo) !== undefined
    );
  }

  private forget(sessionId: string): void {
    this.wholes.delete(sessionId);
    for (const key of this.chunks.keys())
      if (key.startsWith(`${sessionId}\u0000`)) this.chunks.delete(key);
  }
}

/** A chunk's rows as the bytes compressed: JSON, every event's text a string kept as it was. */
function packed(rows: Row[]): Buffer {
  return Buffer.from(JSON.stringify(rows));
}

function eventsOf(sessionId: string, compressed: Buffer): StoredEvent[] {
  const rows = JSON.parse(brotliDecompressSync(compressed).toString('utf8')) as Row[];
  return rows.map(([seq, received_at_ms, source, data]) => ({
    session_id: sessionId,
    seq,
    received_at_ms,
    source,
    data,
  }));
}

function remember<T>(cache: Map<string, T>, key: string, value: T, max: number): T {
  cache.set(key, value);
  if (cache.size > max) cache.delete(cache.keys().next().value!);
  return value;
}
