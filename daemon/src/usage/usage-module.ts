import type { Db } from '../db/database.js';
import type { EventStore } from '../events/event-store.js';
import type { RouteTable } from '../http/route.js';
import { analyticsRoutes } from './analytics.routes.js';
import { AnalyticsRepo } from './analytics-repo.js';
import { UsageRecorder } from './usage-recorder.js';

export interface Usage {
  recorder: UsageRecorder;
  analytics: AnalyticsRepo;
}

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
  const analytics = new AnalyticsRepo(db, flush);
  analyticsRoutes(routes, analytics, db.name, flush);
  return { recorder, analytics };
}
