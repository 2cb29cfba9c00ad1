import { LaunchBrake } from '../admission/launch-brake.js';
import { QueueRepo } from '../sessions/queue-repo.js';
import { SessionManager } from '../sessions/session-manager.js';
import { SessionRepo } from '../sessions/session-repo.js';
import { Recycler } from '../storage/recycler.js';
import { relaisPlugin } from './plugin.js';

export interface Sessions {
  repo: SessionRepo;
  queue: QueueRepo;
  manager: SessionManager;
  recycler: Recycler;
  /** The launch brake, read by the metrics (how long until a subscription may launch). */
  brake: LaunchBrake;
}

declare module 'fastify' {
  interface FastifyInstance {
    sessions: Sessions;
  }
}

/**
 * The sessions: their table, their queues, the manager of their lives (launch, turns, stop),
 * recovered from a previous run before the daemon serves; and the recycler of ended ones.
 */
export const sessionsPlugin = relaisPlugin(
  'relais-sessions',
  ['relais-core', 'relais-permissions', 'relais-agents', 'relais-subscriptions', 'relais-library'],
  async (app) => {
    const { config, db, events, hub } = app.core;
    const repo = new SessionRepo(db, (id) => events.currentSeq(id));
    const queue = new QueueRepo(db);
    const { library } = app;
    const brake = new LaunchBrake({
      burst: config.launchBurst,
      intervalMs: config.launchIntervalMs,
    });
    const manager = new SessionManager({
      db,
      sessions: repo,
      queue,
      events,
      broker: app.permissions.broker,
      hub,
      subscriptions: app.subscriptions.service,
      agents: app.agents.registry,
      brake,
      health: app.subscriptions.health,
      // The quotas come later (their routes follow the others'); until then nothing is refused.
      admitQuota: (id) => (app.hasDecorator('quotas') ? app.quotas.admit(id) : undefined),
      log: app.log,
      stopGraceMs: config.stopGraceMs,
      maxTtlSeconds: config.maxTtlSeconds,
      dataHome: config.home,
      containment: app.agents.containment,
      isolation: app.agents.isolation,
      prelaunch: {
        placeLibrary: (id) => {
          for (const failure of library.service.place(id))
            app.log.warn({ failure }, 'the library could not be placed');
        },
        instructions: (id) => library.instructions.forStart(id),
      },
    });
    await manager.recoverAfterRestart();
    const recycler = new Recycler(repo, events.archive, {
      compressAfterDays: config.compressAfterDays,
      deleteAfterDays: config.deleteAfterDays,
      intervalMs: config.recycleIntervalMs,
    });
    events.flush();
    recycler.start();
    app.decorate<Sessions>('sessions', { repo, queue, manager, recycler, brake });
  },
);

/**
 * Registered last, so it closes first: the recycler and every session's agent stop while the
 * capabilities they write to (history, usage, quotas, the events) are still open.
 */
export const stopSessionsFirstPlugin = relaisPlugin(
  'relais-stop-sessions-first',
  ['relais-sessions'],
  async (app) => {
    app.addHook('onClose', async () => {
      app.sessions.recycler.stop();
      app.log.info('shutdown: stopping agents');
      await app.sessions.manager.shutdown();
      app.core.events.flush();
    });
  },
);
