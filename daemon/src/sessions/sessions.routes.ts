import {
  Heartbeat,
  Session,
  SessionLaunch,
  SessionListQuery,
  SessionPatch,
  SessionResume,
  LaunchWait,
  LaunchWaitQuery,
  listOf,
} from '../../../contract/api.js';
import { appFromHeader } from '../http/app-header.js';
import { IdParams, type RouteTable } from '../http/route.js';
import { callerRef } from '../keys/caller.js';
import { mcpInventory } from '../mcp/inventory.js';
import { resumeConversation } from './resume.js';
import { sessionEventRoutes } from './session-events.routes.js';
import { sessionQueueRoutes } from './session-queue.routes.js';
import { tag, type SessionRoutesDeps } from './session-routes-deps.js';

export type { SessionRoutesDeps } from './session-routes-deps.js';

/** The sessions' routes, in the order the API document lists them. */
export function sessionRoutes(table: RouteTable, deps: SessionRoutesDeps): void {
  listSessions(table, deps);
  launchSession(table, deps);
  launchWait(table, deps);
  resumeSession(table, deps);
  getSession(table, deps);
  renameSession(table, deps);
  stopSession(table, deps);
  extendDeadline(table, deps);
  interruptTurn(table, deps);
  sessionEventRoutes(table, deps);
  sessionQueueRoutes(table, deps);
}

function listSessions(table: RouteTable, deps: SessionRoutesDeps): void {
  const { sessions } = deps;
  table.add({
    method: 'GET',
    url: '/api/sessions',
    scope: 'read',
    tag,
    summary: 'List sessions, newest first',
    query: SessionListQuery,
    response: listOf(Session),
    handler: ({ query }) => sessions.list(query),
  });
}

function launchSession(table: RouteTable, deps: SessionRoutesDeps): void {
  const { manager, agentHome } = deps;
  table.add({
    method: 'POST',
    url: '/api/sessions',
    scope: 'launch',
    tag,
    summary: 'Launch a session',
    status: 201,
    errors: [404, 409, 429],
    body: SessionLaunch,
    response: Session,
    handler: async ({ body, request }) => {
      // Listed before the start, so the agent is never shown the tools the launch did not allow.
      const mcp = body.mcp_servers
        ? await mcpInventory(body.mcp_servers, { cwd: body.cwd, home: agentHome })
        : undefined;
      // A caller key's sessions carry its name: whatever `app` it declares is ignored.
      const key = callerRef(request);
      const app = key?.name ?? body.app ?? appFromHeader(request, 'unknown');
      return manager.launch({ ...body, app }, app, mcp, null, key?.id ?? null);
    },
  });
}

function launchWait(table: RouteTable, deps: SessionRoutesDeps): void {
  const { manager } = deps;
  table.add({
    method: 'GET',
    url: '/api/subscriptions/:id/launch-wait',
    scope: 'launch',
    tag: 'subscriptions',
    summary:
      'How long the launch brake would hold a launch of this app on this subscription, asked before launching (nothing is spent)',
    errors: [404],
    params: IdParams,
    query: LaunchWaitQuery,
    response: LaunchWait,
    handler: ({ params, query, request }) => {
      const app = callerRef(request)?.name ?? query.app ?? appFromHeader(request, 'unknown');
      return {
        subscription_id: params.id,
        app,
        wait_seconds: manager.launchWaitSeconds(params.id, app),
      };
    },
  });
}

function resumeSession(table: RouteTable, deps: SessionRoutesDeps): void {
  const { manager, sessions } = deps;
  table.add({
    method: 'POST',
    url: '/api/sessions/:id/resume',
    tag,
    summary:
      "Continue an ended session's conversation (or an imported one) in a new live session: same subscription, under the permission engine",
    status: 201,
    errors: [404, 409, 422, 429],
    params: IdParams,
    body: SessionResume,
    response: Session,
    handler: ({ params, body, request }) =>
      resumeConversation(
        { sessions, manager },
        params.id,
        body,
        body.app ?? appFromHeader(request, 'unknown'),
      ),
  });
}

function getSession(table: RouteTable, deps: SessionRoutesDeps): void {
  const { manager } = deps;
  table.add({
    method: 'GET',
    url: '/api/sessions/:id',
    scope: 'read',
    tag,
    summary: 'One session',
    errors: [404],
    params: IdParams,
    response: Session,
    handler: ({ params }) => manager.get(params.id),
  });
}

function renameSession(table: RouteTable, deps: SessionRoutesDeps): void {
  const { manager } = deps;
  table.add({
    method: 'PATCH',
    url: '/api/sessions/:id',
    scope: 'steer',
    tag,
    summary: 'Rename a session (its title; by default the first prompt)',
    errors: [404],
    params: IdParams,
    body: SessionPatch,
    response: Session,
    handler: ({ params, body }) => manager.rename(params.id, body.title),
  });
}

function stopSession(table: RouteTable, deps: SessionRoutesDeps): void {
  const { manager } = deps;
  table.add({
    method: 'POST',
    url: '/api/sessions/:id/stop',
    scope: 'steer',
    tag,
    summary: 'Stop: interrupt, close input, then kill the process group',
    errors: [404],
    params: IdParams,
    response: Session,
    handler: ({ params }) => manager.stop(params.id),
  });
}

function extendDeadline(table: RouteTable, deps: SessionRoutesDeps): void {
  const { manager } = deps;
  table.add({
    method: 'POST',
    url: '/api/sessions/:id/heartbeat',
    scope: 'steer',
    tag,
    summary: 'Extend the deadline, up to the maximum bound',
    errors: [404, 409],
    params: IdParams,
    body: Heartbeat,
    response: Session,
    handler: ({ params, body }) => manager.heartbeat(params.id, body.extend_seconds),
  });
}

function interruptTurn(table: RouteTable, deps: SessionRoutesDeps): void {
  const { manager } = deps;
  table.add({
    method: 'POST',
    url: '/api/sessions/:id/interrupt',
    scope: 'steer',
    tag,
    summary: 'Interrupt the running turn',
    errors: [404, 409],
    params: IdParams,
    response: Session,
    handler: ({ params }) => manager.interrupt(params.id),
  });
}
