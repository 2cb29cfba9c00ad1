import type { FastifyInstance } from 'fastify';
import { diagnosticsRoutes } from '../diagnostics/diagnostics.routes.js';
import { systemRoutes } from '../http/system.routes.js';
import { isolationReport } from '../isolation/isolation-report.js';
import { libraryRoutes } from '../library/library.routes.js';
import { liveRoutes } from '../live/live.routes.js';
import { mcpRoutes } from '../mcp/mcp.routes.js';
import { allowedHostRoutes } from '../permissions/allowed-hosts.routes.js';
import { permissionRoutes } from '../permissions/permissions.routes.js';
import { rulesRoutes } from '../permissions/rules.routes.js';
import { sessionRoutes } from '../sessions/sessions.routes.js';
import { storageRoutes } from '../storage/storage.routes.js';
import { subscriptionRoutes } from '../subscriptions/subscriptions.routes.js';
import { VersionChecker, npmLatest } from '../versions/version-check.js';
import { relaisPlugin } from './plugin.js';

/**
 * The routes of the capabilities registered before, declared in the order openapi.json lists
 * them (history, usage and quotas declare theirs after, in their own plugins).
 */
export const apiPlugin = relaisPlugin<{ npmEnv?: NodeJS.ProcessEnv }>(
  'relais-api',
  ['relais-sessions'],
  async (app, options) => {
    const { config, db, databaseFile, events, hub, routes } = app.core;
    const { sessions, permissions, library } = app;
    systemRoutes(routes, app.core.version);
    subscriptionRoutes(routes, app.subscriptions.service);
    sessionRoutes(routes, {
      manager: sessions.manager,
      sessions: sessions.repo,
      queue: sessions.queue,
      events,
      hub,
      agentHome: config.agentHome,
    });
    mcpRoutes(routes, config.agentHome);
    libraryRoutes(routes, {
      repo: library.repo,
      service: library.service,
      instructions: library.instructions,
      subscriptions: app.subscriptions.repo,
    });
    permissionRoutes(routes, permissions.repo, permissions.broker);
    allowedHostRoutes(routes, permissions.allowedHosts);
    liveRoutes(routes, hub, sessions.repo, permissions.repo);
    rulesRoutes(routes, {
      engine: permissions.engine,
      audit: permissions.audit,
      source: () => permissions.rulesSource,
      onSaved: () => (permissions.rulesSource = 'file'),
    });
    storageRoutes(routes, {
      sessions: sessions.repo,
      db,
      databaseFile,
      events,
      archive: events.archive,
      recycler: sessions.recycler,
    });
    diagnostics(app, options.npmEnv);
  },
);

/** The diagnostics routes: the daemon's health, its logs, the version cards of the pinned agents. */
function diagnostics(app: FastifyInstance, npmEnv: NodeJS.ProcessEnv | undefined): void {
  const { config, db, databaseFile, routes } = app.core;
  const { sessions, agents } = app;
  const versions = new VersionChecker(
    agents.entries.flatMap((agent) =>
      agent.pinned
        ? [{ agent: agent.kind, package: agent.pinned.package, pinned: agent.pinned.version }]
        : [],
    ),
    npmLatest(npmEnv ?? process.env),
  );
  diagnosticsRoutes(routes, {
    db,
    sessions: sessions.repo,
    databaseFile,
    home: config.home,
    version: app.core.version,
    startedAtMs: app.core.startedAtMs,
    port: () => app.core.port(),
    liveAgents: () => sessions.manager.liveAgents(),
    containment: agents.containment,
    isolation: () => isolationReport(agents.isolation),
    logs: app.core.logSink,
    versions,
    claudeCodeVersion: () =>
      agents.entries.find((agent) => agent.kind === 'claude')?.pinned?.version() ?? null,
  });
}
