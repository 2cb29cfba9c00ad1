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
export function installUsage(db: Db, events: EventStore, routes: RouteTable): Usage {
  const recorder = new UsageRecorder(db).attach(events);
  const analytics = new AnalyticsRepo(db, () => recorder.flush());
  analyticsRoutes(routes, analytics, db.name, () => recorder.flush());
  return { recorder, analytics };
}
