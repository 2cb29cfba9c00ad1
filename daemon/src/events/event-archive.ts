import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import type { EventSource } from '../../../contract/api.js';
import type { Db } from '../db/database.js';
import { nowIso } from '../ids.js';
import type { SessionMarks } from './session-marks.js';
import type { StoredEvent } from './stored-event.js';

type Row = [seq: number, receivedAtMs: number, source: EventSource, data: string];

const CACHE_SIZE = 4;

/**
 * Finished conversations compressed into one blob each. The stored text of every event is kept
 * as a string, so a compressed conversation reads back byte for byte, with the same sequence.
 */
export class EventArchive {
  private readonly cache = new Map<string, StoredEvent[]>();

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
    const row = this.db
      .prepare('SELECT last_seq FROM event_archives WHERE session_id = ?')
      .get(sessionId) as { last_seq: number } | undefined;
    return row?.last_seq ?? 0;
  }

  /** Moves a conversation's events out of the hot table into its archive; returns the archive size. */
  compress(sessionId: string): { events: number; rawBytes: number; bytes: number } {
    return this.db.transaction(() => {
      const rows = this.db
        .prepare(
          'SELECT seq, received_at_ms, source, data FROM events WHERE session_id = ? ORDER BY seq',
        )
        .raw()
        .all(sessionId) as Row[];
      const previous = this.load(sessionId);
      const all: Row[] = [
        ...previous.map((e): Row => [e.seq, e.received_at_ms, e.source, e.data]),
        ...rows,
      ];
      const json = JSON.stringify(all);
      const blob = brotliCompressSync(Buffer.from(json), {
        params: { [constants.BROTLI_PARAM_QUALITY]: 5 },
      });
      const rawBytes = all.reduce((sum, row) => sum + Buffer.byteLength(row[3]), 0);
      this.db
        .prepare(
          `INSERT OR REPLACE INTO event_archives (session_id, first_seq, last_seq, event_count, raw_bytes, compressed, compressed_at)
           VALUES (?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          sessionId,
          all[0]?.[0] ?? 0,
          all[all.length - 1]?.[0] ?? 0,
          all.length,
          rawBytes,
          blob,
          nowIso(),
        );
      this.db.prepare('DELETE FROM events WHERE session_id = ?').run(sessionId);
      this.marks.markConversation(sessionId, 'compressed');
      this.cache.delete(sessionId);
      return { events: all.length, rawBytes, bytes: blob.length };
    })();
  }

  /** Deletes a conversation's events, hot or archived; the session row and its metrics stay. */
  delete(sessionId: string): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM events WHERE session_id = ?').run(sessionId);
      this.db.prepare('DELETE FROM event_archives WHERE session_id = ?').run(sessionId);
      this.marks.markConversation(sessionId, 'deleted');
    })();
    this.cache.delete(sessionId);
  }

  /** Every archived event of a session, oldest first (empty when not archived). */
  load(sessionId: string): StoredEvent[] {
    const cached = this.cache.get(sessionId);
    if (cached) return cached;
    const row = this.db
      .prepare('SELECT compressed FROM event_archives WHERE session_id = ?')
      .get(sessionId) as { compressed: Buffer } | undefined;
    if (!row) return [];
    const rows = JSON.parse(brotliDecompressSync(row.compressed).toString('utf8')) as Row[];
    const events = rows.map(([seq, received_at_ms, source, data]) => ({
      session_id: sessionId,
      seq,
      received_at_ms,
      source,
      data,
    }));
    this.cache.set(sessionId, events);
    if (this.cache.size > CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
    return events;
  }
}
