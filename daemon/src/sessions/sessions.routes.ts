import { z } from 'zod';
import {
  EVENTS_PAGE_MAX,
  EVENTS_PAGE_MAX_CHARS,
  EventsPage,
  EventsQuery,
  Heartbeat,
  MessageResult,
  MessageSend,
  Outline,
  OutlineQuery,
  QueueEntry,
  QueueOrder,
  Session,
  SessionLaunch,
  SessionListQuery,
  SessionPatch,
  SessionResume,
  LaunchWait,
  LaunchWaitQuery,
  SessionStreamLine,
  StreamQuery,
  listOf,
} from '../../../contract/api.js';
import { agentReader } from '../agents/readers.js';
import { eventJson, type EventStore } from '../events/event-store.js';
import { OutlineIndex, sliceOutline } from '../events/outline.js';
import { streamSessionEvents } from '../events/session-stream.js';
import { apiError } from '../http/errors.js';
import { appFromHeader } from '../http/app-header.js';
import { callerRef } from '../keys/caller.js';
import { IdParams, type RouteTable } from '../http/route.js';
import { mcpInventory } from '../mcp/inventory.js';
import type { GlobalHub } from '../events/global-hub.js';
import { NDJSON } from '../http/ndjson-stream.js';
import type { QueueRepo } from './queue-repo.js';
import { resumeConversation } from './resume.js';
import type { SessionManager } from './session-manager.js';
import type { SessionRepo } from './session-repo.js';

export interface SessionRoutesDeps {
  manager: SessionManager;
  sessions: SessionRepo;
  queue: QueueRepo;
  events: EventStore;
  hub: GlobalHub;
  /** The HOME the agents get: a stdio MCP server listed at launch runs with it too. */
  agentHome: string;
}

const EntryParams = z
  .object({ id: z.string().min(1).max(200), entryId: z.string().min(1).max(200) })
  .strict();
const QueueList = z.object({ items: z.array(QueueEntry), next_cursor: z.null() });

/**
 * A range of past events (or of their outline) entirely at or below the last stored seq never
 * changes: events are append-only. Kept in the browser's own cache only (private), a week at most:
 * a conversation deleted by the recycler or by hand is unreachable from the console (its session
 * answers 404 before any page is asked), and its copies there expire.
 */
const CLOSED_RANGE = 'private, max-age=604800, immutable';

export function sessionRoutes(table: RouteTable, deps: SessionRoutesDeps): void {
  const { manager, sessions, queue, events, hub, agentHome } = deps;
  const tag = 'sessions';

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

  table.add({
    method: 'GET',
    url: '/api/sessions/:id/events',
    scope: 'read',
    tag,
    errors: [404],
    summary: `Events in chunks: after=N (forwards), before=N (backwards), neither (the newest chunk); at most ${EVENTS_PAGE_MAX}, and about ${EVENTS_PAGE_MAX_CHARS / 1_000_000} MB of data (a larger event comes alone)`,
    params: IdParams,
    query: EventsQuery,
    response: EventsPage,
    handler: ({ params, query, reply }) => {
      const session = manager.get(params.id);
      const limit = Math.min(query.limit, EVENTS_PAGE_MAX);
      const forwards = query.after !== undefined && query.before === undefined;
      const { items, more } = events.readPage(params.id, {
        after: query.after,
        before: query.before,
        limit,
        fromEnd: !forwards,
        maxChars: EVENTS_PAGE_MAX_CHARS,
        clip: query.clip,
      });
      const firstSeq = events.firstSeq(params.id);
      const lastSeq = Math.max(session.last_seq, events.currentSeq(params.id));
      let next: string | null = null;
      if (forwards && more && items[items.length - 1]!.seq < lastSeq)
        next = String(items[items.length - 1]!.seq);
      if (!forwards && items.length > 0 && firstSeq !== null && items[0]!.seq > firstSeq)
        next = String(items[0]!.seq);
      const closed =
        (query.before !== undefined && query.before - 1 <= lastSeq) || (forwards && more);
      if (closed) reply.header('cache-control', CLOSED_RANGE);
      return `{"items":[${items.map(eventJson).join(',')}],"next_cursor":${JSON.stringify(next)},"first_seq":${firstSeq ?? 'null'},"last_seq":${lastSeq}}`;
    },
  });

  const outlines = new OutlineIndex(events);
  table.add({
    method: 'GET',
    url: '/api/sessions/:id/outline',
    scope: 'read',
    tag,
    errors: [404],
    summary:
      'Where to jump: the context line, every turn and every tool call, with their sequence numbers',
    params: IdParams,
    query: OutlineQuery,
    response: Outline,
    handler: ({ params, query, reply }) => {
      const session = manager.get(params.id);
      const outline = outlines.get(params.id, agentReader(session.agent).outline);
      if (query.before !== undefined && query.before - 1 <= outline.last_seq)
        reply.header('cache-control', CLOSED_RANGE);
      return sliceOutline(outline, query.after ?? 0, query.before ?? Infinity);
    },
  });

  table.add({
    method: 'GET',
    url: '/api/sessions/:id/stream',
    scope: 'read',
    tag,
    errors: [404],
    summary: 'Live events from after=N on (NDJSON over fetch), then session changes and keepalives',
    params: IdParams,
    query: StreamQuery,
    stream: { contentType: NDJSON, line: SessionStreamLine },
    handler: async ({ params, query, request, reply }) => {
      manager.get(params.id);
      const current = (): Session => manager.get(params.id);
      await streamSessionEvents(params.id, query, current, events, hub, request, reply);
    },
  });

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
      hubSession(params.id);
      return { items, next_cursor: null };
    },
  });

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
      hubSession(params.id);
    },
  });

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
      hubSession(params.id);
    },
  });

  function hubSession(id: string): void {
    const session = sessions.get(id);
    if (session) hub.publish({ type: 'session', session });
  }
}
