import { signal } from '@angular/core';
import { QueueEntry } from '../../../contract/api';
import { SessionsApi } from '../sessions/sessions-api';

/** The open conversation's queue of prompts, as last read or written. */
export class ConversationQueue {
  private readonly entries = signal<QueueEntry[]>([]);
  readonly current = this.entries.asReadonly();
  /** Bumped by every read or write: an answer to an earlier read is not shown. */
  private version = 0;

  constructor(
    private readonly api: SessionsApi,
    private readonly openId: () => string | null,
  ) {}

  async refresh(): Promise<void> {
    const id = this.openId();
    if (!id) return;
    const version = ++this.version;
    try {
      const entries = await this.api.queue(id);
      // Reads overlap (each session change asks again): the last one asked for wins.
      if (version === this.version && this.openId() === id) this.entries.set(entries);
    } catch {
      // The queue panel keeps its last known state; the next session change refreshes it again.
    }
  }

  set(entries: QueueEntry[]): void {
    this.version++;
    this.entries.set(entries);
  }
}
