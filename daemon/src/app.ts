import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { join } from 'node:path';
import type { AgentEntry } from './agents/agent.js';
import type { RelaisConfig } from './config.js';
import { startCheckpointer } from './db/checkpointer.js';
import { openDatabase, type Db } from './db/database.js';
import { lockDataFolder, type DataFolderLock } from './home/data-folder-lock.js';
import { LogSink } from './diagnostics/log-sink.js';
import { requestForLog } from './diagnostics/request-log.js';
import type { EventStore } from './events/event-store.js';
import type { GlobalHub } from './events/global-hub.js';
import { clientErrorHandler, frameworkErrors } from './http/error-handler.js';
import type { RouteTable } from './http/route.js';
import { ensureDataHome, loadOrCreateApiKey } from './home/data-home.js';
import { limitHeapGrowth } from './heap-growth.js';
import type { PermissionPolicy } from './agents/permission-policy.js';
import { agentsPlugin } from './plugins/agents.js';
import { apiPlugin } from './plugins/api.js';
import { historyPlugin, quotasPlugin, usagePlugin } from './plugins/capabilities.js';
import { corePlugin, type CoreOptions } from './plugins/core.js';
import { registerDemo } from './plugins/demo.js';
import { keysPlugin } from './plugins/keys.js';
import { libraryPlugin } from './plugins/library.js';
import { metricsPlugin } from './plugins/metrics.js';
import { permissionsPlugin } from './plugins/permissions.js';
import { serverPlugin } from './plugins/server.js';
import { sessionsPlugin, stopSessionsFirstPlugin } from './plugins/sessions.js';
import { subscriptionsPlugin } from './plugins/subscriptions.js';
import { quotaConfigFromEnv } from './quotas/quota-config.js';
import { SCHEMA } from './schema.js';
import type { SessionManager } from './sessions/session-manager.js';
import { relaisVersion } from './version.js';

export interface Relais {
  app: FastifyInstance;
  db: Db;
  apiKey: string;
  config: RelaisConfig;
  manager: SessionManager;
  events: EventStore;
  hub: GlobalHub;
  routes: RouteTable;
  /** Port the server listens on (after `listen`). */
  port(): number;
  listen(): Promise<string>;
  close(): Promise<void>;
}

/**
 * One debug line per request instead of two at info: a console polling and streaming would flood
 * the terminal. A request that failed is still an error line.
 */
class QuietRequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const fields = {
      req: { method: request.method, url: request.url },
      res: { statusCode: reply.statusCode },
      responseTime: reply.elapsedTime,
    };
    if (error) reply.log.error({ ...fields, err: error }, 'request errored');
    else reply.log.debug(fields, 'request completed');
  }
}

/** pino's level numbers, by name. */
const LOG_LEVELS: Record<string, number> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Infinity,
};

export interface BuildOptions {
  policy?: PermissionPolicy;
  logSink?: LogSink;
  npmEnv?: NodeJS.ProcessEnv;
  /** Agents beyond the catalog's, through the port alone (a test's scripted agent). */
  agents?: readonly AgentEntry[];
}

/** Builds the whole daemon without listening: tests run it in-process on a temporary home. */
export async function build(config: RelaisConfig, options: BuildOptions = {}): Promise<Relais> {
  limitHeapGrowth();
  ensureDataHome(config.home);
  // Before anything reads or ends what another daemon of this folder runs.
  const lock = lockDataFolder(config.home);
  try {
    return await buildLocked(config, options, lock);
  } catch (error: unknown) {
    lock.release();
    throw error;
  }
}

async function buildLocked(
  config: RelaisConfig,
  options: BuildOptions,
  lock: DataFolderLock,
): Promise<Relais> {
  const apiKey = loadOrCreateApiKey(config.home);
  const databaseFile = join(config.home, 'relais.db');
  const db = openDatabase(databaseFile, SCHEMA);
  const checkpointer = startCheckpointer(db, databaseFile);
  const logSink = options.logSink ?? new LogSink();
  logSink.attach(db);
  logSink.protect(apiKey);
  let boundPort = config.port;
  const app = server(config, apiKey, logSink);

  await registerCapabilities(app, {
    core: {
      config,
      apiKey,
      db,
      databaseFile,
      logSink,
      checkpointer,
      version: relaisVersion(),
      startedAtMs: Date.now(),
      port: () => boundPort,
    },
    policy: options.policy,
    npmEnv: options.npmEnv,
    agents: options.agents,
  });

  const { events, hub, routes } = app.core;
  return {
    app,
    db,
    apiKey,
    config,
    manager: app.sessions.manager,
    events,
    hub,
    routes,
    port: () => boundPort,
    async listen() {
      await app.listen({ host: config.host, port: config.port });
      const address = app.server.address();
      if (address && typeof address === 'object') boundPort = address.port;
      // The rescan on start runs behind the server: conversations appear as they are read.
      void app.history.start();
      return `http://${config.host}:${boundPort}`;
    },
    close: () => closeThenUnlock(app, lock),
  };
}

async function closeThenUnlock(app: FastifyInstance, lock: DataFolderLock): Promise<void> {
  app.log.info('shutdown: stop accepting requests');
  try {
    await app.close();
  } finally {
    lock.release();
  }
}

/**
 * One plugin per capability, in the order they need each other (each declares what it needs);
 * they close in the reverse order: the sessions' agents first, the database last.
 */
async function registerCapabilities(
  app: FastifyInstance,
  options: Omit<BuildOptions, 'logSink'> & { core: CoreOptions },
): Promise<void> {
  await app.register(corePlugin, options.core);
  const demo = await registerDemo(app, {
    modelUrl: options.core.config.demoModelUrl,
    quotaUrl: quotaConfigFromEnv().demoUrl,
  });
  await app.register(permissionsPlugin, { policy: options.policy });
  await app.register(agentsPlugin, { demoModelUrl: demo.modelUrl, more: options.agents });
  await app.register(subscriptionsPlugin);
  await app.register(libraryPlugin);
  await app.register(sessionsPlugin);
  await app.register(apiPlugin, { npmEnv: options.npmEnv });
  await app.register(historyPlugin);
  await app.register(usagePlugin);
  await app.register(quotasPlugin, { demoQuotaUrl: demo.quotaUrl });
  await app.register(metricsPlugin);
  await app.register(keysPlugin);
  await app.register(serverPlugin);
  await app.register(stopSessionsFirstPlugin);
}

/** The Fastify instance: logs into the sink (debug kept, the terminal from its level), JSON only. */
function server(config: RelaisConfig, apiKey: string, logSink: LogSink): FastifyInstance {
  // The terminal shows RELAIS_LOG_LEVEL and above (warnings by default); the logs API keeps debug
  // and above, requests included, so the Diagnostics page can still show them.
  const terminalLevel = LOG_LEVELS[config.logLevel] ?? LOG_LEVELS['warn']!;
  logSink.echoFrom(terminalLevel);
  const keptLevel = config.logLevel === 'silent' || terminalLevel < 20 ? config.logLevel : 'debug';
  const app = Fastify({
    logger: {
      level: keptLevel,
      redact: ['req.headers.authorization'],
      serializers: { req: requestForLog(apiKey) },
      stream: logSink,
    },
    logController: new QuietRequestLog(),
    bodyLimit: config.bodyLimitBytes,
    forceCloseConnections: true,
    frameworkErrors,
    clientErrorHandler,
    return503OnClosing: false,
  });
  // JSON only: any other body type is refused with 415 rather than read as text.
  app.removeContentTypeParser('text/plain');
  return app;
}
