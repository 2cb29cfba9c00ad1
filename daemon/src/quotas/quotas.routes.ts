import type { FastifyInstance } from 'fastify';
import { QuotasAnswer } from '../../../contract/usage.js';
import { apiError } from '../http/errors.js';
import type { RouteTable } from '../http/route.js';
import type { Admission } from './admission.js';
import type { QuotaService } from './quota-service.js';

export function quotaRoutes(table: RouteTable, service: QuotaService): void {
  table.add({
    method: 'GET',
    url: '/api/quotas',
    tag: 'quotas',
    summary:
      'Quota windows per subscription: utilization (percent), reset, read time, fresh | stale | unknown (never 0 for unknown)',
    response: QuotasAnswer,
    handler: () => ({
      items: service.all(),
      next_cursor: null,
      stale_after_seconds: Math.round(service.config.staleAfterMs / 1000),
    }),
  });
}

/**
 * Refuses a launch (POST /api/sessions) that the quota cannot take, before the session manager
 * sees it: 429 `quota_exhausted` with Retry-After (the binding window's reset) and the figures.
 * A body the route's schema will reject is left to that schema.
 */
export function installAdmissionCheck(app: FastifyInstance, admission: Admission): void {
  app.addHook('preHandler', async (request) => {
    if (request.method !== 'POST' || request.routeOptions.url !== '/api/sessions') return;
    const body = request.body as { subscription_id?: unknown } | undefined;
    if (typeof body?.subscription_id !== 'string') return;
    const decision = admission.check(body.subscription_id);
    if (decision.admit) return;
    throw apiError('quota_exhausted', decision.message, {
      ...(decision.retry_after_seconds !== null
        ? { retry_after_seconds: decision.retry_after_seconds }
        : {}),
      figures: decision.figures,
    });
  });
}
