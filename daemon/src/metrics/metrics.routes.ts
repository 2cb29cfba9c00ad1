import { z } from 'zod';
import type { RouteTable } from '../http/route.js';
import type { Registry } from 'prom-client';

/** GET /metrics: the Prometheus text exposition, for a scraper holding the key as a bearer token. */
export function metricsRoutes(table: RouteTable, registry: Registry): void {
  table.add({
    method: 'GET',
    url: '/metrics',
    tag: 'metrics',
    summary:
      'Metrics in the Prometheus text format (relais_* families and the process defaults); the key as a bearer token',
    scope: 'metrics',
    stream: {
      contentType: 'text/plain',
      line: z.string().describe('One line of the Prometheus text exposition format 0.0.4'),
    },
    handler: async ({ reply }) => {
      const text = await registry.metrics();
      return reply.type(registry.contentType).send(text);
    },
  });
}
