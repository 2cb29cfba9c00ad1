import type { RecycleResult } from '../../../contract/operations.js';
import type { EventArchive } from '../events/event-archive.js';
import { nowIso } from '../ids.js';
import type { SessionRepo } from '../sessions/session-repo.js';

const DAY_MS = 24 * 3600 * 1000;

export interface RecyclePolicy {
  compressAfterDays: number;
  deleteAfterDays: number;
  intervalMs: number;
}

/**
 * Finished conversations are compressed after `compressAfterDays` and deleted after
 * `deleteAfterDays`; session rows and metrics (turns, tool calls, audit) stay.
 */
export class Recycler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<RecycleResult> | null = null;
  lastRunAt: string | null = null;
  nextRunAt: string | null = null;
  lastResult: RecycleResult | null = null;

  constructor(
    private readonly sessions: Pick<SessionRepo, 'endedBefore'>,
    private readonly archive: EventArchive,
    readonly policy: RecyclePolicy,
    private readonly now: () => number = Date.now,
  ) {}

  /** Runs once now, then every interval (the daemon answers meanwhile: see EventArchive). */
  start(): void {
    // A pass cut short (the daemon stopping mid-compress) leaves its conversations hot, whole: the
    // next pass takes them again.
    const pass = () => void this.run().catch(() => undefined);
    pass();
    this.timer = setInterval(pass, this.policy.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** One pass; a pass asked while one runs is that one. */
  run(): Promise<RecycleResult> {
    this.running ??= this.pass().finally(() => (this.running = null));
    return this.running;
  }

  private async pass(): Promise<RecycleResult> {
    const now = this.now();
    const deleteBefore = nowIso(now - this.policy.deleteAfterDays * DAY_MS);
    const compressBefore = nowIso(now - this.policy.compressAfterDays * DAY_MS);
    const toDelete = this.sessions.endedBefore(deleteBefore, ['hot', 'compressed']);
    for (const id of toDelete) this.archive.delete(id);
    const toCompress = this.sessions.endedBefore(compressBefore, ['hot']);
    for (const id of toCompress) await this.archive.compress(id);
    this.lastRunAt = nowIso(now);
    this.nextRunAt = nowIso(now + this.policy.intervalMs);
    this.lastResult = {
      compressed: toCompress.length,
      deleted: toDelete.length,
      ran_at: this.lastRunAt,
    };
    return this.lastResult;
  }

  /** When recycling will compress and delete a conversation that ended at `endedAt`. */
  datesFor(endedAt: string | null): { compress_at: string | null; delete_at: string | null } {
    if (!endedAt) return { compress_at: null, delete_at: null };
    const ended = Date.parse(endedAt);
    return {
      compress_at: nowIso(ended + this.policy.compressAfterDays * DAY_MS),
      delete_at: nowIso(ended + this.policy.deleteAfterDays * DAY_MS),
    };
  }
}
