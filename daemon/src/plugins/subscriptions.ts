import { SubscriptionHealth } from '../admission/subscription-health.js';
import { SubscriptionRepo } from '../subscriptions/subscription-repo.js';
import { SubscriptionService } from '../subscriptions/subscription-service.js';
import { relaisPlugin } from './plugin.js';

export interface Subscriptions {
  repo: SubscriptionRepo;
  service: SubscriptionService;
  health: SubscriptionHealth;
}

declare module 'fastify' {
  interface FastifyInstance {
    subscriptions: Subscriptions;
  }
}

/** The accounts agents run under, the built-in demo one included, and their health. */
export const subscriptionsPlugin = relaisPlugin(
  'relais-subscriptions',
  ['relais-core', 'relais-agents'],
  async (app) => {
    const { db, config } = app.core;
    const repo = new SubscriptionRepo(db);
    const health = new SubscriptionHealth(db);
    const service = new SubscriptionService(
      repo,
      app.agents.registry,
      config.home,
      // The sessions come later (they need the subscriptions): asked only once the daemon serves.
      (id) => (app.hasDecorator('sessions') ? app.sessions.manager.hasRunning(id) : false),
      health,
    );
    service.ensureDemo();
    app.decorate<Subscriptions>('subscriptions', { repo, service, health });
  },
);
