import type { RelaisConfig } from '../config.js';
import type { Checkpointer } from '../db/checkpointer.js';
import type { Db } from '../db/database.js';
import type { LogSink } from '../diagnostics/log-sink.js';
import { EventStore } from '../events/event-store.js';
import { GlobalHub } from '../events/global-hub.js';
import { RouteTable } from '../http/route.js';
import { SessionMarksRepo } from '../sessions/session-marks-repo.js';
import { relaisPlugin } from './plugin.js';

/** What every capability reads: the settings, the database, the events and their bus, the routes. */
export interface Core {
  config: RelaisConfig;
  apiKey: string;
  db: Db;
  databaseFile: string;
  logSink: LogSink;
  events: EventStore;
  hub: GlobalHub;
  /** Each capability declares its routes here; the server plugin registers them all at once. */
  routes: RouteTable;
  version: string;
  startedAtMs: number;
  /** The port the server listens on (the configured one until `listen`). */
  port(): number;
}

declare module 'fastify' {
  interface FastifyInstance {
    core: Core;
  }
}

export interface CoreOptions extends Omit<Core, 'events' | 'hub' | 'routes'> {
  checkpointer: Checkpointer;
}

/** The foundation; closes last: the log, the checkpointer, then the database. */
export const corePlugin = relaisPlugin<CoreOptions>('relais-core', [], async (app, options) => {
  const { checkpointer, ...given } = options;
  const events = new EventStore(
    given.db,
    new SessionMarksRepo(given.db),
    (error, dropped) => app.log.error({ err: error, dropped }, 'events could not all be written'),
    (error) => app.log.error({ err: error }, 'an event listener failed'),
  );
  app.decorate<Core>('core', { ...given, events, hub: new GlobalHub(), routes: new RouteTable() });
  app.addHook('onClose', async () => {
    events.flush();
    app.log.info('shutdown: closing the database');
    given.logSink.flush();
    await checkpointer.stop();
    given.db.close();
  });
});
