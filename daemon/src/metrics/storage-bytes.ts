import type { Db } from '../db/database.js';
import { categoryOf } from '../storage/storage-report.js';
import { tableBytes } from '../storage/table-bytes.js';

const REFRESH_MS = 10 * 60_000;

/**
 * The database's bytes by category (the Storage page's categories). Measuring walks every page
 * (dbstat), which grows with the history: a worker thread does it (table-bytes.ts), at most
 * every ten minutes, and a scrape reads the last figures.
 */
export class StorageBytes {
  private figures = new Map<string, number>();
  private started = false;
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;
  private readonly stopping = new AbortController();

  constructor(private readonly db: Db) {}

  categories(): Map<string, number> {
    if (!this.started && !this.db.memory) {
      this.started = true;
      this.measure();
    }
    return this.figures;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.stopping.abort();
  }

  private measure(): void {
    if (this.stopped) return;
    tableBytes(this.db, this.stopping.signal)
      .then((rows) => {
        if (rows.length === 0) return;
        const figures = new Map<string, number>();
        for (const row of rows) {
          const category = categoryOf(row.name);
          figures.set(category, (figures.get(category) ?? 0) + row.bytes);
        }
        this.figures = figures;
      })
      // Busy, locked or gone: the figures stay as they were until the next measure.
      .catch(() => undefined)
      .finally(() => {
        if (this.stopped) return;
        this.timer = setTimeout(() => this.measure(), REFRESH_MS);
        this.timer.unref();
      });
  }
}
