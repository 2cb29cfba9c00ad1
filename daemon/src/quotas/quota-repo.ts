import type { Db } from '../db/database.js';
import type { QuotaReading } from './quota-parse.js';

interface Row {
  subscription_id: string;
  window_name: string;
  utilization: number | null;
  resets_at_ms: number | null;
  read_at_ms: number;
  source: QuotaReading['source'];
}

/** Latest reading per subscription and window; an older reading never replaces a newer one. */
export class QuotaRepo {
  private readonly upsert;
  private readonly select;

  constructor(db: Db) {
    this.upsert = db.prepare(
      `INSERT INTO quota_windows (subscription_id, window_name, utilization, resets_at_ms, read_at_ms, source)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (subscription_id, window_name) DO UPDATE SET utilization = excluded.utilization,
         resets_at_ms = excluded.resets_at_ms, read_at_ms = excluded.read_at_ms, source = excluded.source
       WHERE excluded.read_at_ms >= quota_windows.read_at_ms`,
    );
    this.select = db.prepare(
      'SELECT * FROM quota_windows WHERE subscription_id = ? ORDER BY window_name',
    );
  }

  save(subscriptionId: string, readings: QuotaReading[]): void {
    for (const r of readings)
      this.upsert.run(
        subscriptionId,
        r.window,
        r.utilization,
        r.resets_at_ms,
        r.read_at_ms,
        r.source,
      );
  }

  latest(subscriptionId: string): QuotaReading[] {
    return (this.select.all(subscriptionId) as Row[]).map((r) => ({
      window: r.window_name,
      utilization: r.utilization ?? 0,
      resets_at_ms: r.resets_at_ms,
      read_at_ms: r.read_at_ms,
      source: r.source,
    }));
  }
}
