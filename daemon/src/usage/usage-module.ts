import { openReader, type Db } from '../db/database.js';
import type { EventStore } from '../events/event-store.js';
import type { RouteTable } from '../http/route.js';
import { analyticsRoutes } from './analytics.routes.js';
import { AnalyticsRepo } from './analytics-repo.js';
import { UsageRecorder } from './usage-recorder.js';

export interface Usage {
  recorder: UsageRecorder;
  analytics: AnalyticsRepo;
  close(): void;
}

/**
 * Analytics read the rollups through their own mapped connection: an hourly series over 90 days
 * reads 4,320 rollup rows whose duration histograms often overflow their page, and each overflow
 * page read through the page cache was a system call (1M turns, series p50 85 → 53 ms). The
 * writer's connection stays unmapped, so a long import does not grow the process by the file.
 */
export const ANALYTICS_MMAP_BYTES = 4 * 1024 ** 3;

/** Counting on ingest plus the analytics routes: the one call app.ts makes. */
export function installUsage(
  db: Db,
  events: EventStore,
  routes: RouteTable,
  /** Writes the turns other writers hold (the history import's batches). */
  flushOthers: () => void = () => undefined,
): Usage {
  const recorder = new UsageRecorder(db).attach(events);
  const flush = (): void => {
    recorder.flush();
    flushOthers();
  };
  const reader = db.memory ? db : openReader(db.name, ANALYTICS_MMAP_BYTES);
  const analytics = new AnalyticsRepo(reader, flush);
  analyticsRoutes(routes, analytics, db.name, flush);
  return {
    recorder,
    analytics,
    close: () => {
      if (reader !== db) reader.close();
    },
  };
}
