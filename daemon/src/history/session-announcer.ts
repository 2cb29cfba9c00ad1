/**
 * Tells the global stream about the imported sessions that changed, at most once per `everyMs`: a
 * first import touches thousands of sessions one file at a time, and each announcement reads the
 * session back (writing the events buffered before it), which cut the import's writes into a
 * transaction per file. Several changes of one session within that time are one announcement.
 */
export class SessionAnnouncer {
  private readonly changed = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly announce: (sessionId: string) => void,
    private readonly everyMs: number,
  ) {}

  changedSession(sessionId: string): void {
    if (this.closed) return;
    this.changed.add(sessionId);
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), this.everyMs);
    this.timer.unref();
  }

  /** Announces every pending change now (a scan has ended). */
  flush(): void {
    this.cancelTimer();
    const sessions = [...this.changed];
    this.changed.clear();
    for (const sessionId of sessions) this.announce(sessionId);
  }

  /** Drops what is pending, and what changes later (the daemon is closing: its file too). */
  close(): void {
    this.closed = true;
    this.cancelTimer();
    this.changed.clear();
  }

  private cancelTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
