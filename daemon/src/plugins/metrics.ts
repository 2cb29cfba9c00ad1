import { hostname } from 'node:os';
import { installMetrics, type Metrics } from '../metrics/metrics-module.js';
import { relaisPlugin } from './plugin.js';

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
}

/**
 * GET /metrics and the OTLP push when configured. Registered after the quotas, so it closes
 * before them: the last push reads usage, history and the database while they are still open.
 */
export const metricsPlugin = relaisPlugin(
  'relais-metrics',
  ['relais-core', 'relais-sessions', 'relais-history', 'relais-usage', 'relais-quotas'],
  async (app) => {
    const { db, databaseFile, events, hub, routes, version } = app.core;
    const { subscriptions, sessions, usage, history, quotas } = app;
    const metrics = installMetrics({
      app,
      routes,
      db,
      databaseFile,
      events,
      hub,
      subscriptionIds: () => subscriptions.repo.all().map((s) => s.id),
      health: (id) => {
        const status = subscriptions.health.status(id);
        return {
          suspended: status.status === 'suspended',
          failedStarts: status.consecutive_failed_starts,
        };
      },
      brakeWaitMs: (id) => sessions.brake.waitMs([`subscription:${id}`]),
      quotas: () => quotas.service.all(),
      flushUsage: () => {
        usage.recorder.flush();
        history.flush();
      },
      service: { version, instance: hostname() },
    });
    app.decorate<Metrics>('metrics', metrics);
    app.addHook('onClose', () => metrics.close());
  },
);
