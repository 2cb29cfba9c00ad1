import type { Db } from '../db/database.js';
import type { RouteTable } from '../http/route.js';
import type { AuditLog } from '../permissions/audit-log.js';
import { PermissionRepo } from '../permissions/permission-repo.js';
import { SessionLookup } from '../sessions/session-lookup.js';
import { keyConfinement } from './confinement.js';
import { KeyRequests } from './key-requests.js';
import { KeyService } from './key-service.js';
import { KeysRepo } from './keys-repo.js';
import { keyRoutes } from './keys.routes.js';

/** Caller keys: their store, routes, the guard's check and the confinement of each request. */
export function installKeys(
  db: Db,
  routes: RouteTable,
  subscriptionExists: (id: string) => boolean,
  audit: AuditLog,
) {
  const requests = new KeyRequests();
  const service = new KeyService(new KeysRepo(db), requests, subscriptionExists, (record) =>
    audit.record(record),
  );
  keyRoutes(routes, service);
  const sessions = new SessionLookup(db);
  const permissions = new PermissionRepo(db);
  const confine = keyConfinement({
    sessionKey: (id) => sessions.keyOf(id),
    permissionSession: (id) => permissions.sessionOf(id),
  });
  return { service, requests, confine, authenticate: service.authenticate.bind(service) };
}
