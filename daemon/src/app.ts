import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { startDemoModel, type DemoModel } from '../../fakes/demo-model/server.js';
import { LaunchBrake } from './admission/launch-brake.js';
import { SubscriptionHealth } from './admission/subscription-health.js';
import { AgentRegistry } from './agents/agent.js';
import { ClaudeDriver } from './agents/claude/claude-agent.js';
import { ClaudeLauncher } from './agents/claude/launcher.js';
import { IsolationPlanner } from './isolation/session-isolation.js';
import { IsolationGate } from './isolation/isolation-gate.js';
import { isolationReport } from './isolation/isolation-report.js';
import { NetworkGatePool } from './isolation/network-gate.js';
import { CodexDriver } from './agents/codex/codex-driver.js';
import type { RelaisConfig } from './config.js';
import { startCheckpointer } from './db/checkpointer.js';
import { openDatabase, type Db } from './db/database.js';
import { EventStore } from './events/event-store.js';
import { installCompression } from './http/compression.js';
import { clientErrorHandler, frameworkErrors, installErrorHandling } from './http/error-handler.js';
import { installGuards } from './http/guards.js';
import { RouteTable } from './http/route.js';
import { installConsole } from './http/static-console.js';
import { systemRoutes } from './http/system.routes.js';
import { ensureDataHome, loadOrCreateApiKey } from './home/data-home.js';
import { GlobalHub } from './events/global-hub.js';
import { liveRoutes } from './live/live.routes.js';
import { AllowedHosts } from './permissions/allowed-hosts.js';
import { allowedHostRoutes } from './permissions/allowed-hosts.routes.js';
import { PermissionBroker } from './permissions/permission-broker.js';
import { PermissionRepo } from './permissions/permission-repo.js';
import { permissionRoutes } from './permissions/permissions.routes.js';
import type { PermissionPolicy } from './permissions/policy.js';
import { AuditLog } from './permissions/audit-log.js';
import { enginePolicy } from './permissions/engine-policy.js';
import { zeroAccessCircle } from './permissions/zero-access.js';
import { RulesStore } from './permissions/engine/index.js';
import { rulesRoutes } from './permissions/rules.routes.js';
import { QueueRepo } from './sessions/queue-repo.js';
import { SessionManager } from './sessions/session-manager.js';
import { SessionRepo } from './sessions/session-repo.js';
import { mcpRoutes } from './mcp/mcp.routes.js';
import { InstructionsRepo } from './library/instructions-repo.js';
import { LibraryRepo } from './library/library-repo.js';
import { libraryRoutes } from './library/library.routes.js';
import { PlacedFiles } from './library/placed-files.js';
import { LibraryService } from './library/library-service.js';
import { sessionRoutes } from './sessions/sessions.routes.js';
import { SubscriptionRepo } from './subscriptions/subscription-repo.js';
import { SubscriptionService } from './subscriptions/subscription-service.js';
import { subscriptionRoutes } from './subscriptions/subscriptions.routes.js';
import { Recycler } from './storage/recycler.js';
import { diagnosticsRoutes, pinnedClaudeVersion } from './diagnostics/diagnostics.routes.js';
import { detectContainment } from './processes/containment.js';
import { LogSink } from './diagnostics/log-sink.js';
import { requestForLog } from './diagnostics/request-log.js';
import { VersionChecker, npmLatest } from './versions/version-check.js';
import { CODEX_PACKAGE, pinnedCodexVersion } from './agents/codex/binary.js';
import { CLAUDE_PACKAGE } from './agents/claude/binary.js';
import { storageRoutes } from './storage/storage.routes.js';
import { installUsage } from './usage/usage-module.js';
import { installQuotas } from './quotas/quotas-module.js';
import { History } from './history/history-module.js';
import { relaisVersion } from './version.js';
import { SCHEMA } from './schema.js';

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

/** Builds the whole daemon without listening: tests run it in-process on a temporary home. */
export async function build(
  config: RelaisConfig,
  options: { policy?: PermissionPolicy; logSink?: LogSink; npmEnv?: NodeJS.ProcessEnv } = {},
): Promise<Relais> {
  ensureDataHome(config.home);
  const apiKey = loadOrCreateApiKey(config.home);
  const databaseFile = join(config.home, 'relais.db');
  const db = openDatabase(databaseFile, SCHEMA);
  const checkpointer = startCheckpointer(db, databaseFile);
  const startedAtMs = Date.now();
  const logSink = options.logSink ?? new LogSink();
  logSink.attach(db);
  logSink.protect(apiKey);
  const version = relaisVersion();
  let boundPort = config.port;

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

  let demo: DemoModel | null = null;
  const demoModelUrl = config.demoModelUrl;
  if (!demoModelUrl) demo = await startDemoModel();

  const hub = new GlobalHub();
  const events = new EventStore(
    db,
    (error, dropped) => app.log.error({ err: error, dropped }, 'events could not all be written'),
    (error) => app.log.error({ err: error }, 'an event listener failed'),
  );
  const sessions = new SessionRepo(db, (id) => events.currentSeq(id));
  const queue = new QueueRepo(db);
  const permissions = new PermissionRepo(db);
  const audit = new AuditLog(db);
  const rulesStore = new RulesStore(config.home);
  const loaded = rulesStore.load();
  let rulesSource: 'file' | 'default' = loaded.ok ? loaded.source : 'default';
  if (!loaded.ok)
    app.log.error(
      { line: loaded.line, path: loaded.path, reason: loaded.reason },
      'the rules file is invalid; the default rules apply',
    );
  const engine = { store: rulesStore, dataDir: config.home, agentHomeDir: config.agentHome };
  // What Relais never reads for an agent from a tree it does not own (transcripts, imports).
  const untrustedBounds = {
    closed: [config.home],
    circle: zeroAccessCircle(rulesStore, homedir()),
  };
  const isolation = new IsolationGate(config.isolation);
  const planner = config.isolation ? new IsolationPlanner(engine) : null;
  const gates = config.isolation ? new NetworkGatePool() : null;
  const launcher = new ClaudeLauncher(
    () => demoModelUrl ?? demo?.url ?? null,
    config.agentHome,
    planner,
  );
  const agents = new AgentRegistry([
    new ClaudeDriver(launcher, gates),
    new CodexDriver(() => demoModelUrl ?? demo?.url ?? null, config.agentHome, planner),
  ]);
  const policy = options.policy ?? enginePolicy(engine);
  const allowedHosts = new AllowedHosts(db);
  const broker = new PermissionBroker({
    allowedHosts,
    repo: permissions,
    events,
    hub,
    audit,
    policy: () => policy,
    timeoutMs: config.permissionTimeoutMs,
    someoneListening: (sessionId) => hub.listenerCount > 0 || events.listenerCount(sessionId) > 0,
  });
  let manager: SessionManager | null = null;
  const health = new SubscriptionHealth(db);
  const subscriptionRepo = new SubscriptionRepo(db);
  const brake = new LaunchBrake({ burst: config.launchBurst, intervalMs: config.launchIntervalMs });
  const subscriptions = new SubscriptionService(
    subscriptionRepo,
    agents,
    config.home,
    (id) => manager?.hasRunning(id) ?? false,
    health,
  );
  subscriptions.ensureDemo();
  let admitQuota: (subscriptionId: string) => void = () => undefined;
  const containment = detectContainment(config.home);
  const libraryRepo = new LibraryRepo(db);
  const instructions = new InstructionsRepo(db);
  const library = new LibraryService({
    repo: libraryRepo,
    subscriptions: new SubscriptionRepo(db),
    agents,
    bounds: untrustedBounds,
    placed: new PlacedFiles(db),
  });
  manager = new SessionManager({
    db,
    sessions,
    queue,
    events,
    broker,
    hub,
    subscriptions,
    agents,
    brake,
    health,
    // The quotas are installed with the routes below; until then nothing is refused.
    admitQuota: (subscriptionId) => admitQuota(subscriptionId),
    log: app.log,
    stopGraceMs: config.stopGraceMs,
    maxTtlSeconds: config.maxTtlSeconds,
    dataHome: config.home,
    containment,
    isolation,
    prelaunch: {
      placeLibrary: (id) => {
        for (const failure of library.place(id))
          app.log.warn({ failure }, 'the library could not be placed');
      },
      instructions: (id) => instructions.forStart(id),
    },
  });
  await manager.recoverAfterRestart();
  const recycler = new Recycler(db, events.archive, {
    compressAfterDays: config.compressAfterDays,
    deleteAfterDays: config.deleteAfterDays,
    intervalMs: config.recycleIntervalMs,
  });
  events.flush();
  recycler.start();

  const routes = new RouteTable();
  systemRoutes(routes, version);
  subscriptionRoutes(routes, subscriptions);
  sessionRoutes(routes, { manager, sessions, queue, events, hub, agentHome: config.agentHome });
  mcpRoutes(routes, config.agentHome);
  libraryRoutes(routes, {
    repo: libraryRepo,
    service: library,
    instructions,
    subscriptions: new SubscriptionRepo(db),
  });
  permissionRoutes(routes, permissions, broker);
  allowedHostRoutes(routes, allowedHosts);
  liveRoutes(routes, hub, sessions, permissions);
  rulesRoutes(routes, {
    engine,
    audit,
    source: () => rulesSource,
    onSaved: () => (rulesSource = 'file'),
  });
  storageRoutes(routes, { db, databaseFile, events, archive: events.archive, recycler });
  const versions = new VersionChecker(
    [
      { agent: 'claude', package: CLAUDE_PACKAGE, pinned: pinnedClaudeVersion },
      { agent: 'codex', package: CODEX_PACKAGE, pinned: pinnedCodexVersion },
    ],
    npmLatest(options.npmEnv ?? process.env),
  );
  diagnosticsRoutes(routes, {
    db,
    databaseFile,
    home: config.home,
    version,
    startedAtMs,
    port: () => boundPort,
    liveAgents: () => manager.liveAgents(),
    containment,
    isolation: () => isolationReport(isolation),
    logs: logSink,
    versions,
  });
  const history = new History({
    db,
    events,
    hub,
    sessions,
    subscriptions: () => subscriptionRepo.all(),
    subscription: (id) => subscriptions.stored(id),
    log: app.log,
    watch: config.historyWatch,
    bounds: untrustedBounds,
  }).install(routes);
  // Analytics read every finished turn: Relais' own and the imported ones still batched.
  const usage = installUsage(db, events, routes, () => history.flush());
  const quotas = await installQuotas(db, events, routes, undefined, demo?.onUsage ?? null);
  admitQuota = quotas.admit;

  installErrorHandling(app);
  installGuards(app, {
    apiKey,
    port: () => boundPort,
    devOrigins: config.devOrigins,
  });
  await installCompression(app);
  routes.register(app);
  installConsole(app, config.consoleDir);

  const relais: Relais = {
    app,
    db,
    apiKey,
    config,
    manager,
    events,
    hub,
    routes,
    port: () => boundPort,
    async listen() {
      await app.listen({ host: config.host, port: config.port });
      const address = app.server.address();
      if (address && typeof address === 'object') boundPort = address.port;
      // The rescan on start runs behind the server: conversations appear as they are read.
      void history.start();
      return `http://${config.host}:${boundPort}`;
    },
    async close() {
      app.log.info('shutdown: stop accepting requests');
      recycler.stop();
      const closing = app.close();
      app.log.info('shutdown: stopping agents');
      await manager.shutdown();
      containment.dispose();
      gates?.close();
      await history.close();
      await closing;
      await demo?.close();
      events.flush();
      usage.recorder.detach();
      usage.close();
      await quotas.close();
      app.log.info('shutdown: closing the database');
      logSink.flush();
      await checkpointer.stop();
      db.close();
    },
  };
  return relais;
}
