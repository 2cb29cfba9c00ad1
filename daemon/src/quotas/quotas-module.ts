import type { Db } from '../db/database.js';
import type { EventStore } from '../events/event-store.js';
import type { RouteTable } from '../http/route.js';
import { Admission } from './admission.js';
import { DEMO_QUOTA_TOKEN, quotaConfigFromEnv, type QuotaConfig } from './quota-config.js';
import { QuotaService } from './quota-service.js';
import { quotaGate, quotaRoutes } from './quotas.routes.js';

export interface Quotas {
  service: QuotaService;
  admission: Admission;
  /** Throws `quota_exhausted` for a launch the quota cannot take; the session manager calls it. */
  admit: (subscriptionId: string) => void;
  close(): void;
}

/** Quota polling, stream readings, GET /api/quotas and the launch gate: the one call app.ts makes. */
export function installQuotas(
  db: Db,
  events: EventStore,
  routes: RouteTable,
  /** The demo subscription's usage endpoint (RELAIS_QUOTA_DEMO_URL, or the scripted one). */
  demoUrl: string | null,
  config: QuotaConfig = quotaConfigFromEnv(),
): Quotas {
  const service = new QuotaService(db, config, () => demoUrl, DEMO_QUOTA_TOKEN);
  const untap = service.attach(events);
  const admission = new Admission(db, service, config.admissionThreshold);
  quotaRoutes(routes, service, admission);
  service.start();
  return {
    service,
    admission,
    admit: quotaGate(admission),
    close() {
      service.stop();
      untap();
    },
  };
}
