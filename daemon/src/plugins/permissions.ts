import { homedir } from 'node:os';
import { AllowedHosts } from '../permissions/allowed-hosts.js';
import { AuditLog } from '../permissions/audit-log.js';
import { enginePolicy } from '../permissions/engine-policy.js';
import { RulesStore } from '../permissions/engine/index.js';
import { PermissionBroker } from '../permissions/permission-broker.js';
import { PermissionRepo } from '../permissions/permission-repo.js';
import type { PermissionPolicy } from '../agents/permission-policy.js';
import { zeroAccessCircle } from '../permissions/zero-access.js';
import type { Bounds } from '../fs/fence.js';
import { relaisPlugin } from './plugin.js';

export interface Permissions {
  repo: PermissionRepo;
  audit: AuditLog;
  allowedHosts: AllowedHosts;
  broker: PermissionBroker;
  /** The rules file, its folder and the agents' home: what the engine and the isolation read. */
  engine: { store: RulesStore; dataDir: string; agentHomeDir: string };
  /** Where the rules in force come from: the file, or the defaults when it is missing or invalid. */
  rulesSource: 'file' | 'default';
  /** What Relais never reads for an agent from a tree it does not own (transcripts, imports). */
  untrustedBounds: Bounds;
}

declare module 'fastify' {
  interface FastifyInstance {
    permissions: Permissions;
  }
}

/** The rules engine, the broker that asks a person, the audit trail and the allowed hosts. */
export const permissionsPlugin = relaisPlugin<{ policy?: PermissionPolicy }>(
  'relais-permissions',
  ['relais-core'],
  async (app, options) => {
    const { config, db, events, hub } = app.core;
    const store = new RulesStore(config.home);
    const loaded = store.load();
    if (!loaded.ok)
      app.log.error(
        { line: loaded.line, path: loaded.path, reason: loaded.reason },
        'the rules file is invalid; the default rules apply',
      );
    const engine = { store, dataDir: config.home, agentHomeDir: config.agentHome };
    const policy = options.policy ?? enginePolicy(engine);
    const repo = new PermissionRepo(db);
    const audit = new AuditLog(db);
    const allowedHosts = new AllowedHosts(db);
    const broker = new PermissionBroker({
      allowedHosts,
      repo,
      events,
      hub,
      audit,
      policy: () => policy,
      timeoutMs: config.permissionTimeoutMs,
      someoneListening: (sessionId) => hub.listenerCount > 0 || events.listenerCount(sessionId) > 0,
    });
    app.decorate<Permissions>('permissions', {
      repo,
      audit,
      allowedHosts,
      broker,
      engine,
      rulesSource: loaded.ok ? loaded.source : 'default',
      untrustedBounds: { closed: [config.home], circle: zeroAccessCircle(store, homedir()) },
    });
  },
);
