import {
  DEMO_METER,
  DEMO_QUOTA_TOKEN,
  startQuotaEndpoint,
  type MeteredUsage,
  type QuotaEndpoint,
} from '../../../fakes/quota-endpoint/server.js';
import type { Db } from '../db/database.js';
import type { EventStore } from '../events/event-store.js';
import type { RouteTable } from '../http/route.js';
import { Admission } from './admission.js';
import { quotaConfigFromEnv, type QuotaConfig } from './quota-config.js';
import { QuotaService } from './quota-service.js';
import { quotaGate, quotaRoutes } from './quotas.routes.js';

export interface Quotas {
  service: QuotaService;
  admission: Admission;
  /** Throws `quota_exhausted` for a launch the quota cannot take; the session manager calls it. */
  admit: (subscriptionId: string) => void;
  /** The scripted usage endpoint of the demo subscription, when this daemon started it. */
  demoEndpoint: QuotaEndpoint | null;
  close(): Promise<void>;
}

/** Quota polling, stream readings, GET /api/quotas and the launch gate: the one call app.ts makes. */
export async function installQuotas(
  db: Db,
  events: EventStore,
  routes: RouteTable,
  config: QuotaConfig = quotaConfigFromEnv(),
  /** The demo model's usage, when this daemon runs it: the demo's windows move with it. */
  demoUsage: ((listener: (usage: MeteredUsage) => void) => () => void) | null = null,
): Promise<Quotas> {
  const demoEndpoint = config.demoUrl ? null : await startQuotaEndpoint({ meter: DEMO_METER });
  const unmeter = demoEndpoint && demoUsage ? demoUsage((u) => demoEndpoint.consume(u)) : null;
  const demoUrl = config.demoUrl ?? demoEndpoint!.url;
  const service = new QuotaService(db, config, () => demoUrl, DEMO_QUOTA_TOKEN);
  const untap = service.attach(events);
  const admission = new Admission(db, service, config.admissionThreshold);
  quotaRoutes(routes, service, admission);
  service.start();
  return {
    service,
    admission,
    admit: quotaGate(admission),
    demoEndpoint,
    async close() {
      service.stop();
      untap();
      unmeter?.();
      await demoEndpoint?.close();
    },
  };
}
