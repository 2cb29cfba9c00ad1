import type { Db } from '../db/database.js';
import { categoryOf } from '../storage/storage-report.js';

const REFRESH_MS = 10 * 60_000;

/**
 * The database's bytes by category (the Storage page's categories). Measuring walks every page
 * (dbstat), which grows with the history: it runs on a timer, at most every ten minutes, and a
 * scrape reads the last figures.
 */
export class StorageBytes {
  private figures = new Map<string, number>();
  private measuredAtMs = -Infinity;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly db: Db) {}

  categories(): Map<string, number> {
    if (this.measuredAtMs === -Infinity) this.schedule(0);
    return this.figures;
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.measuredAtMs = Infinity;
  }

  private schedule(delayMs: number): void {
    if (this.timer || this.measuredAtMs === Infinity) return;
    this.measuredAtMs = 0;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.measure();
      this.schedule(REFRESH_MS);
    }, delayMs);
    this.timer.unref();
  }

  private measure(): void {
    if (!this.db.open || this.measuredAtMs === Infinity) return;
    const figures = new Map<string, number>();
    const rows = this.db
      .prepare('SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name')
      .all() as { name: string; bytes: number }[];
    for (const row of rows) {
      const category = categoryOf(row.name);
      figures.set(category, (figures.get(category) ?? 0) + row.bytes);
    }
    this.figures = figures;
    this.measuredAtMs = Date.now();
  }
}
