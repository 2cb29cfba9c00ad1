import { z } from 'zod';
import { MessageResult, MessageSend, QueueEntry, QueueOrder } from '../../../contract/api.js';
import { apiError } from '../http/errors.js';
import { IdParams, type RouteTable } from '../http/route.js';
import { tag, type SessionRoutesDeps } from './session-routes-deps.js';

const EntryParams = z
  .object({ id: z.string().min(1).max(200), entryId: z.string().min(1).max(200) })
  .strict();
const QueueList = z.object({ items: z.array(QueueEntry), next_cursor: z.null() });

/** Instructions to a session: sent, steered in, or queued, and the queue itself. */
export function sessionQueueRoutes(table: RouteTable, deps: SessionRoutesDeps): void {
  sendMessage(table, deps);
  steerMessage(table, deps);
  steerQueued(table, deps);
  listQueue(table, deps);
  reorderQueue(table, deps);
  clearQueue(table, deps);
  deleteQueued(table, deps);
}

/** The queue changed: everyone watching hears the session again (its queue length). */
function publishSession({ sessions, hub }: SessionRoutesDeps, id: string): void {
  const session = sessions.get(id);
  if (session) hub.publish({ type: 'session', session });
}

function sendMessage(table: RouteTable, deps: SessionRoutesDeps): void {
  const { manager } = deps;
  table.add({
    method: 'POST',
    url: '/api/sessions/:id/messages',
    scope: 'steer',
    tag,
    errors: [404, 409],
    summary: 'Send an instruction now when the agent is idle, else queue it (at most 10)',
    params: IdParams,
    body: MessageSend,
    response: MessageResult,
    handler: ({ params, body }) => manager.send(params.id, body.text),
  });
}

function steerMessage(table: RouteTable, deps: SessionRoutesDeps): void {
  const { manager } = deps;
  table.add({
    method: 'POST',
    url: '/api/sessions/:id/steer',
    scope: 'steer',
    tag,
    errors: [404, 409],
    summary:
      'Steer now: add the instruction to the running turn (Codex), or interrupt it and send this next (Claude); sent at once when idle',
    params: IdParams,
    body: MessageSend,
    response: MessageResult,
    handler: ({ params, body }) => manager.steer(params.id, body.text),
  });
}

function steerQueued(table: RouteTable, deps: SessionRoutesDeps): void {
  const { manager } = deps;
  table.add({
    method: 'POST',
    url: '/api/sessions/:id/queue/:entryId/steer',
    scope: 'steer',
    tag,
    errors: [404, 409],
    summary: 'Steer now with a queued instruction: it leaves the queue and joins the running turn',
    params: EntryParams,
    response: MessageResult,
    handler: ({ params }) => manager.steerQueued(params.id, params.entryId),
  });
}

function listQueue(table: RouteTable, deps: SessionRoutesDeps): void {
  const { manager, queue } = deps;
  table.add({
    method: 'GET',
    url: '/api/sessions/:id/queue',
    scope: 'read',
    tag,
    summary: 'Instructions waiting, in order',
    errors: [404],
    params: IdParams,
    response: QueueList,
    handler: ({ params }) => (
      manager.get(params.id),
      { items: queue.list(params.id), next_cursor: null }
    ),
  });
}

function reorderQueue(table: RouteTable, deps: SessionRoutesDeps): void {
  const { manager, queue } = deps;
  table.add({
    method: 'PUT',
    url: '/api/sessions/:id/queue',
    scope: 'steer',
    tag,
    summary: 'Reorder the queue: every entry id, once, in the new order',
    errors: [404],
    params: IdParams,
    body: QueueOrder,
    response: QueueList,
    handler: ({ params, body }) => {
      manager.get(params.id);
      const items = queue.reorder(params.id, body.ids);
      publishSession(deps, params.id);
      return { items, next_cursor: null };
    },
  });
}

function clearQueue(table: RouteTable, deps: SessionRoutesDeps): void {
  const { manager, queue } = deps;
  table.add({
    method: 'DELETE',
    url: '/api/sessions/:id/queue',
    scope: 'steer',
    tag,
    summary: 'Empty the queue',
    status: 204,
    errors: [404],
    params: IdParams,
    handler: ({ params }) => {
      manager.get(params.id);
      queue.clear(params.id);
      publishSession(deps, params.id);
    },
  });
}

function deleteQueued(table: RouteTable, deps: SessionRoutesDeps): void {
  const { manager, queue } = deps;
  table.add({
    method: 'DELETE',
    url: '/api/sessions/:id/queue/:entryId',
    scope: 'steer',
    tag,
    summary: 'Delete one queued instruction',
    status: 204,
    errors: [404],
    params: EntryParams,
    handler: ({ params }) => {
      manager.get(params.id);
      if (!queue.remove(params.id, params.entryId))
        throw apiError('not_found', 'No such queue entry.');
      publishSession(deps, params.id);
    },
  });
}
