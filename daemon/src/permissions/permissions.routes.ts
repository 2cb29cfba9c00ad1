import { appFromHeader } from '../http/app-header.js';
import {
  PermissionDecisionBody,
  PermissionListQuery,
  PermissionRequest,
  listOf,
} from '../../../contract/api.js';
import { IdParams, type RouteTable } from '../http/route.js';
import { callerRef } from '../keys/caller.js';
import type { PermissionBroker } from './permission-broker.js';
import { publicPermission, type PermissionRepo } from './permission-repo.js';

export function permissionRoutes(
  table: RouteTable,
  repo: PermissionRepo,
  broker: PermissionBroker,
): void {
  const tag = 'permissions';
  table.add({
    method: 'GET',
    url: '/api/permissions',
    scope: 'read',
    tag,
    summary: 'Permission requests across sessions, oldest first',
    query: PermissionListQuery,
    response: listOf(PermissionRequest),
    handler: ({ query }) => ({ items: repo.list(query).map(publicPermission), next_cursor: null }),
  });
  table.add({
    method: 'POST',
    url: '/api/permissions/:id/decision',
    scope: 'decide',
    tag,
    errors: [404, 409],
    summary:
      'Answer one request: allow or deny, once or for the session, with a message or answers',
    params: IdParams,
    body: PermissionDecisionBody,
    response: PermissionRequest,
    // Who answered, as the audit says it: a caller key's name (and id), else the calling tool's
    // X-Relais-App (the console, the terminal…), the console when a caller names none.
    handler: ({ params, body, request }) => {
      const key = callerRef(request);
      const by = key?.name ?? appFromHeader(request, 'console');
      return publicPermission(broker.decide(params.id, body, by, key?.id ?? null));
    },
  });
}
