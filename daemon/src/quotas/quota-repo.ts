import type { Db } from '../db/database.js';
import type { QuotaReading } from './quota-parse.js';
import type { WindowReading } from './rate-estimator.js';

/** Readings older than the longest window (seven days) and a day are dropped. */
const KEEP_MS = 8 * 24 * 3_600_000;
/** At most this many readings of a window are read back for learning, newest first. */
const HISTORY_ROWS = 5000;

interface Row {
  subscription_id: string;
  window_name: string;
  utilization: number | null;
  resets_at_ms: number | null;
  read_at_ms: number;
  source: QuotaReading['source'];
}

/**
 * Latest reading per subscription and window (an older reading never replaces a newer one), and the
 * history of readings admission learns from.
 */
export class QuotaRepo {
  private readonly upsert;
  private readonly select;
  private readonly lastTwo;
  private readonly append;
  private readonly extend;
  private readonly prune;
  private readonly history;

  private readonly saveAll;

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
    this.lastTwo = db.prepare(
      `SELECT read_at_ms, utilization, resets_at_ms FROM quota_readings
       WHERE subscription_id = ? AND window_name = ? ORDER BY read_at_ms DESC LIMIT 2`,
    );
    this.append = db.prepare(
      `INSERT OR IGNORE INTO quota_readings (subscription_id, window_name, read_at_ms, utilization, resets_at_ms)
       VALUES (?, ?, ?, ?, ?)`,
    );
    this.extend = db.prepare(
      'UPDATE quota_readings SET read_at_ms = ? WHERE subscription_id = ? AND window_name = ? AND read_at_ms = ?',
    );
    this.prune = db.prepare(
      'DELETE FROM quota_readings WHERE subscription_id = ? AND window_name = ? AND read_at_ms < ?',
    );
    this.history = db.prepare(
      `SELECT read_at_ms, utilization, resets_at_ms FROM quota_readings
       WHERE subscription_id = ? AND window_name = ? AND read_at_ms >= ?
       ORDER BY read_at_ms DESC LIMIT ${HISTORY_ROWS}`,
    );
    this.saveAll = db.transaction((subscriptionId: string, readings: QuotaReading[]) => {
      for (const r of readings) {
        const changed = this.upsert.run(
          subscriptionId,
          r.window,
          r.utilization,
          r.resets_at_ms,
          r.read_at_ms,
          r.source,
        ).changes;
        if (changed > 0) this.remember(subscriptionId, r);
      }
    });
  }

  /** One transaction: the latest figure and its history never part, whatever stops the daemon. */
  save(subscriptionId: string, readings: QuotaReading[]): void {
    this.saveAll(subscriptionId, readings);
  }

  /** Readings of a window since `sinceMs`, oldest first. */
  readings(subscriptionId: string, window: string, sinceMs: number): WindowReading[] {
    return (this.history.all(subscriptionId, window, sinceMs) as WindowReading[]).reverse();
  }

  /**
   * Appends a reading to the history. A third equal reading in a row moves the second's time
   * instead: the pair (first, last) carries the same change over the same units, in fewer rows.
   */
  private remember(subscriptionId: string, r: QuotaReading): void {
    const [last, before] = this.lastTwo.all(subscriptionId, r.window) as WindowReading[];
    const same = (x: WindowReading | undefined): boolean =>
      x !== undefined && x.utilization === r.utilization && x.resets_at_ms === r.resets_at_ms;
    if (last && last.read_at_ms >= r.read_at_ms) return;
    if (same(last) && same(before))
      this.extend.run(r.read_at_ms, subscriptionId, r.window, last!.read_at_ms);
    else this.append.run(subscriptionId, r.window, r.read_at_ms, r.utilization, r.resets_at_ms);
    this.prune.run(subscriptionId, r.window, r.read_at_ms - KEEP_MS);
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
