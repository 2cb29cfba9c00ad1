import type { RecycleResult } from '../../../contract/operations.js';
import type { Db } from '../db/database.js';
import type { EventArchive } from '../events/event-archive.js';
import { nowIso } from '../ids.js';

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
  lastRunAt: string | null = null;
  nextRunAt: string | null = null;
  lastResult: RecycleResult | null = null;

  constructor(
    private readonly db: Db,
    private readonly archive: EventArchive,
    readonly policy: RecyclePolicy,
    private readonly now: () => number = Date.now,
  ) {}

  /** Runs once now, then every interval. */
  start(): void {
    this.run();
    this.timer = setInterval(() => this.run(), this.policy.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  run(): RecycleResult {
    const now = this.now();
    const deleteBefore = nowIso(now - this.policy.deleteAfterDays * DAY_MS);
    const compressBefore = nowIso(now - this.policy.compressAfterDays * DAY_MS);
    const ended = (before: string, conversations: string[]): string[] =>
      (
        this.db
          .prepare(
            `SELECT id FROM sessions WHERE state = 'ended' AND origin = 'relais' AND ended_at < ? AND conversation IN (${conversations.map(() => '?').join(',')})`,
          )
          .all(before, ...conversations) as { id: string }[]
      ).map((row) => row.id);
    const toDelete = ended(deleteBefore, ['hot', 'compressed']);
    for (const id of toDelete) this.archive.delete(id);
    const toCompress = ended(compressBefore, ['hot']);
    for (const id of toCompress) this.archive.compress(id);
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
