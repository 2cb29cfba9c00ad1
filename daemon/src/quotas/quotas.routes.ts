import { AdmissionAnswer, AdmissionQuery, QuotasAnswer } from '../../../contract/usage.js';
import { apiError } from '../http/errors.js';
import type { RouteTable } from '../http/route.js';
import type { Admission } from './admission.js';
import type { QuotaService } from './quota-service.js';

export function quotaRoutes(table: RouteTable, service: QuotaService, admission: Admission): void {
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

  table.add({
    method: 'GET',
    url: '/api/quotas/admission',
    tag: 'quotas',
    summary:
      'What admission would decide for a launch on this subscription now, and the figures it would use (nothing is reserved)',
    errors: [404],
    query: AdmissionQuery,
    response: AdmissionAnswer,
    handler: ({ query }) => {
      if (!admission.exists(query.subscription_id))
        throw apiError('not_found', `No subscription has the id ${query.subscription_id}.`);
      return { subscription_id: query.subscription_id, ...admission.check(query.subscription_id) };
    },
  });
}

/**
 * The launch gate of the quotas: refuses a launch the quota cannot take with 429
 * `quota_exhausted`, Retry-After (the binding window's reset) and the figures.
 */
export function quotaGate(admission: Admission): (subscriptionId: string) => void {
  return (subscriptionId) => {
    const decision = admission.check(subscriptionId);
    if (decision.admit) return;
    throw apiError('quota_exhausted', decision.message, {
      ...(decision.retry_after_seconds !== null
        ? { retry_after_seconds: decision.retry_after_seconds }
        : {}),
      figures: decision.figures,
    });
  };
}
