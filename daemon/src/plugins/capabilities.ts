import { History } from '../history/history-module.js';
import { installQuotas, type Quotas } from '../quotas/quotas-module.js';
import { installUsage, type Usage } from '../usage/usage-module.js';
import { relaisPlugin } from './plugin.js';

declare module 'fastify' {
  interface FastifyInstance {
    history: History;
    usage: Usage;
    quotas: Quotas;
  }
}

/** Transcripts the agents wrote outside Relais, imported and followed; started by `listen`. */
export const historyPlugin = relaisPlugin('relais-history', ['relais-sessions'], async (app) => {
  const { db, events, hub, config, routes } = app.core;
  const subscriptions = app.subscriptions;
  const history = new History({
    db,
    events,
    hub,
    sessions: app.sessions.repo,
    subscriptions: () => subscriptions.repo.all(),
    subscription: (id) => subscriptions.service.stored(id),
    log: app.log,
    watch: config.historyWatch,
    bounds: app.permissions.untrustedBounds,
  }).install(routes);
  app.decorate('history', history);
  app.addHook('onClose', () => history.close());
});

/** Turns counted as they end, and the analytics that read them. */
export const usagePlugin = relaisPlugin('relais-usage', ['relais-history'], async (app) => {
  const { db, events, routes } = app.core;
  // Analytics read every finished turn: Relais' own and the imported ones still batched.
  const usage = installUsage(db, events, routes, () => app.history.flush());
  app.decorate('usage', usage);
  app.addHook('onClose', async () => {
    events.flush();
    usage.recorder.detach();
    usage.close();
  });
});

/** Quota readings (polled and streamed), GET /api/quotas and the launch gate. */
export const quotasPlugin = relaisPlugin<{ demoQuotaUrl: string | null }>(
  'relais-quotas',
  ['relais-core'],
  async (app, { demoQuotaUrl }) => {
    const { db, events, routes } = app.core;
    const quotas = installQuotas(db, events, routes, demoQuotaUrl);
    app.decorate('quotas', quotas);
    app.addHook('onClose', () => quotas.close());
  },
);
