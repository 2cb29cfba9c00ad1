import { QUEUE_MAX, type QueueEntry } from '../../../contract/api.js';
import type { Db } from '../db/database.js';
import { apiError } from '../http/errors.js';
import { newId, nowIso } from '../ids.js';

/** The per-session queue of instructions waiting for the agent's turn to end. */
export class QueueRepo {
  constructor(private readonly db: Db) {}

  list(sessionId: string): QueueEntry[] {
    return this.db
      .prepare('SELECT * FROM queue_entries WHERE session_id = ? ORDER BY position, created_at')
      .all(sessionId) as QueueEntry[];
  }

  add(sessionId: string, text: string): QueueEntry {
    return this.db.transaction(() => {
      const entries = this.list(sessionId);
      if (entries.length >= QUEUE_MAX) {
        throw apiError(
          'queue_full',
          `The queue already holds ${QUEUE_MAX} instructions; wait for one to be sent or delete one.`,
        );
      }
      const entry: QueueEntry = {
        id: newId('q'),
        session_id: sessionId,
        text,
        position: (entries[entries.length - 1]?.position ?? 0) + 1,
        created_at: nowIso(),
      };
      this.db
        .prepare(
          'INSERT INTO queue_entries (id, session_id, text, position, created_at) VALUES (@id, @session_id, @text, @position, @created_at)',
        )
        .run(entry);
      return entry;
    })();
  }

  remove(sessionId: string, entryId: string): boolean {
    return (
      this.db
        .prepare('DELETE FROM queue_entries WHERE session_id = ? AND id = ?')
        .run(sessionId, entryId).changes > 0
    );
  }

  clear(sessionId: string): number {
    return this.db.prepare('DELETE FROM queue_entries WHERE session_id = ?').run(sessionId).changes;
  }

  /** Reorders to exactly the given ids: every current entry, once. */
  reorder(sessionId: string, ids: string[]): QueueEntry[] {
    return this.db.transaction(() => {
      const current = this.list(sessionId).map((entry) => entry.id);
      const same =
        ids.length === current.length &&
        new Set(ids).size === ids.length &&
        ids.every((id) => current.includes(id));
      if (!same) {
        throw apiError('invalid_request', 'ids must list every entry of the queue exactly once.');
      }
      const update = this.db.prepare(
        'UPDATE queue_entries SET position = ? WHERE session_id = ? AND id = ?',
      );
      ids.forEach((id, index) => update.run(index + 1, sessionId, id));
      return this.list(sessionId);
    })();
  }

  /** Takes the first entry out of the queue. */
  shift(sessionId: string): QueueEntry | null {
    return this.db.transaction(() => {
      const first = this.list(sessionId)[0];
      if (!first) return null;
      this.db.prepare('DELETE FROM queue_entries WHERE id = ?').run(first.id);
      return first;
    })();
  }
}
