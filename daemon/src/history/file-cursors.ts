import type { Db } from '../db/database.js';

/** Where a transcript file was read to, and what it was then (to tell growth from replacement). */
export interface FileCursor {
  path: string;
  subscription_id: string;
  /** The imported session its lines went to; null when none yet, or when Relais launched it. */
  session_id: string | null;
  /** 1: a conversation Relais launched itself (its events are already stored): never imported. */
  native: number;
  dev: number;
  ino: number;
  size: number;
  mtime_ms: number;
  /** Byte offset after the last whole line read. */
  offset: number;
  /** Hash of the bytes just before `offset`: a file rewritten in place no longer matches it. */
  tail_hash: string;
  lines: number;
  malformed: number;
  reader_state: string | null;
  open_response: number;
  error: string | null;
  read_at_ms: number;
}

export type FileIdentity = Pick<
  FileCursor,
  'path' | 'dev' | 'ino' | 'size' | 'mtime_ms' | 'offset' | 'open_response'
>;

/**
 * The cursors of the transcripts. A cursor saved waits in memory (and is what `get` and
 * `identities` answer) until `commit`, which the importer calls once the events and turns read
 * before it are stored: a daemon killed in between reads those lines again, never skips them.
 */
export class FileCursors {
  private readonly one;
  private readonly identitiesOf;
  private readonly writeWaiting: () => void;
  private readonly waiting = new Map<string, FileCursor>();

  constructor(db: Db) {
    this.one = db.prepare('SELECT * FROM history_files WHERE path = ?');
    this.identitiesOf = db.prepare(
      'SELECT path, dev, ino, size, mtime_ms, offset, open_response FROM history_files WHERE subscription_id = ?',
    );
    const upsert = db.prepare(
      `INSERT OR REPLACE INTO history_files (path, subscription_id, session_id, native, dev, ino, size, mtime_ms,
         offset, tail_hash, lines, malformed, reader_state, open_response, error, read_at_ms)
       VALUES (@path, @subscription_id, @session_id, @native, @dev, @ino, @size, @mtime_ms, @offset, @tail_hash,
         @lines, @malformed, @reader_state, @open_response, @error, @read_at_ms)`,
    );
    this.writeWaiting = db.transaction(() => {
      for (const cursor of this.waiting.values()) upsert.run(cursor);
    });
  }

  get(path: string): FileCursor | null {
    return this.waiting.get(path) ?? (this.one.get(path) as FileCursor | undefined) ?? null;
  }

  /** What a rescan compares, without the readers' states. */
  identities(subscriptionId: string): Map<string, FileIdentity> {
    const rows = this.identitiesOf.all(subscriptionId) as FileIdentity[];
    const found = new Map(rows.map((row) => [row.path, row]));
    for (const cursor of this.waiting.values())
      if (cursor.subscription_id === subscriptionId) found.set(cursor.path, cursor);
    return found;
  }

  save(cursor: FileCursor): void {
    this.waiting.set(cursor.path, cursor);
  }

  /** Stores the cursors saved since the last commit. */
  commit(): void {
    if (this.waiting.size === 0) return;
    this.writeWaiting();
    this.waiting.clear();
  }
}
