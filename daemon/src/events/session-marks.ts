/**
 * The columns of a session row that follow its stored conversation. The event store tells them;
 * the sessions folder owns the table and keeps them (events/ sits below it and cannot import it).
 * Both are called inside the event store's transactions: an implementation writes through the
 * store's own connection, so a crash keeps the marks and the events they describe together.
 */
export interface SessionMarks {
  /** Raises the session's last stored sequence to `seq` (never lowers it). */
  raiseLastSeq(sessionId: string, seq: number): void;
  /** Where the session's conversation now lives once compressed or deleted. */
  markConversation(sessionId: string, where: 'compressed' | 'deleted'): void;
}
