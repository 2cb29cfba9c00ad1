import { Worker } from 'node:worker_threads';
import type { Db } from '../db/database.js';
import { categoryOf } from '../storage/storage-report.js';

const REFRESH_MS = 10 * 60_000;

/**
 * The database's bytes by category (the Storage page's categories). Measuring walks every page
 * (dbstat), which grows with the history: a worker thread does it on its own connection, at
 * most every ten minutes, and a scrape reads the last figures.
 */
export class StorageBytes {
  private figures = new Map<string, number>();
  private started = false;
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;
  private worker: Worker | null = null;

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
    void this.worker?.terminate();
  }

  private measure(): void {
    if (this.stopped) return;
    const worker = new Worker(new URL('./storage-worker.js', import.meta.url), {
      workerData: { file: this.db.name },
    });
    this.worker = worker;
    worker.unref();
    worker.once('message', (rows: { name: string; bytes: number }[]) => {
      if (rows.length === 0) return;
      const figures = new Map<string, number>();
      for (const row of rows) {
        const category = categoryOf(row.name);
        figures.set(category, (figures.get(category) ?? 0) + row.bytes);
      }
      this.figures = figures;
    });
    worker.once('error', () => undefined);
    worker.once('exit', () => {
      this.worker = null;
      if (this.stopped) return;
      this.timer = setTimeout(() => this.measure(), REFRESH_MS);
      this.timer.unref();
    });
  }
}
