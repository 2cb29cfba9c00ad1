import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Registry } from 'prom-client';
import type { RouteTable } from '../http/route.js';
import { LabelCaps } from './label-cap.js';
import { metricsRoutes } from './metrics.routes.js';
import { startOtlpPush, type OtlpPush } from './otlp.js';
import { stateMetrics, type StateSources } from './state-metrics.js';
import { usageMetrics } from './usage-metrics.js';

export interface MetricsDeps extends StateSources {
  app: FastifyInstance;
  routes: RouteTable;
  /** Writes the turns still buffered, so that a scrape counts every finished turn. */
  flushUsage: () => void;
  env?: NodeJS.ProcessEnv;
  /** The daemon's version and this machine's name, for the OTLP resource. */
  service: { version: string; instance: string };
}

export interface Metrics {
  registry: Registry;
  close(): Promise<void>;
}

const LAUNCH_ROUTE = '/api/sessions';
const MISNAMED_DEFAULTS = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

/** GET /metrics, the families behind it, and the OTLP push when configured: the call app.ts makes. */
export function installMetrics(deps: MetricsDeps): Metrics {
  const registry = new Registry();
  const caps = new LabelCaps();
  collectDefaultMetrics({ register: registry });
  // Gauges the client names like counters, which promtool refuses; the per-type gauges
  // (nodejs_active_handles{type} and the like) say the same.
  for (const name of MISNAMED_DEFAULTS) registry.removeSingleMetric(name);
  usageMetrics(registry, deps.db, caps, deps.flushUsage);
  const stopState = stateMetrics(registry, deps, caps);
  countRefusals(deps.app, registry);
  metricsRoutes(deps.routes, registry);
  const otlp: OtlpPush | null = startOtlpPush(registry, deps.env ?? process.env, deps.service);
  return {
    registry,
    async close() {
      stopState();
      await otlp?.close();
    },
  };
}

/** Launches refused (brake, quota, suspension, bad input…) by the error code of the answer. */
function countRefusals(app: FastifyInstance, registry: Registry): void {
  const refusals = new Counter({
    name: 'relais_session_launch_refusals_total',
    help: 'Launches refused since the daemon started, by error code',
    labelNames: ['error_code'],
    registers: [registry],
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method !== 'POST' || request.routeOptions.url !== LAUNCH_ROUTE) return payload;
    if (reply.statusCode < 400) return payload;
    refusals.inc({ error_code: errorCodeOf(payload) });
    return payload;
  });
}

/** The error code of an error body (a known code: they are the API's own, a short list). */
function errorCodeOf(payload: unknown): string {
  if (typeof payload !== 'string') return 'unknown';
  const match = /"error_code"\s*:\s*"([a-z_]{1,60})"/.exec(payload);
  return match ? match[1]! : 'unknown';
}
