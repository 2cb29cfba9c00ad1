import type { Db } from '../db/database.js';
import type { SessionMarks } from '../events/session-marks.js';

/** The event store's writes on session rows, kept with the rest of the sessions table's. */
export class SessionMarksRepo implements SessionMarks {
  private readonly lastSeq;
  private readonly conversation;

  constructor(db: Db) {
    this.lastSeq = db.prepare('UPDATE sessions SET last_seq = ? WHERE id = ? AND last_seq < ?');
    this.conversation = db.prepare('UPDATE sessions SET conversation = ? WHERE id = ?');
  }

  raiseLastSeq(sessionId: string, seq: number): void {
    this.lastSeq.run(seq, sessionId, seq);
  }

  markConversation(sessionId: string, where: 'compressed' | 'deleted'): void {
    this.conversation.run(where, sessionId);
  }
}
