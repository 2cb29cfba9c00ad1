import {
  EVENTS_PAGE_MAX,
  EVENTS_PAGE_MAX_CHARS,
  EventsPage,
  EventsQuery,
  Outline,
  OutlineQuery,
  Session,
  SessionStreamLine,
  StreamQuery,
} from '../../../contract/api.js';
import { SearchQuery } from '../../../contract/api/search-query.js';
import { SearchPage } from '../../../contract/api/search.js';
import { agentReader } from '../agents/readers.js';
import { eventJson } from '../events/event-store.js';
import { SCAN_CHARS, SCAN_EVENTS, searchEvents } from '../events/event-search.js';
import { OutlineIndex, sliceOutline } from '../events/outline.js';
import { streamSessionEvents } from '../events/session-stream.js';
import { NDJSON } from '../http/ndjson-stream.js';
import { IdParams, type RouteTable } from '../http/route.js';
import { tag, type SessionRoutesDeps } from './session-routes-deps.js';

/**
 * A range of past events (or of their outline) entirely at or below the last stored seq never
 * changes: events are append-only. Kept in the browser's own cache only (private), a week at most:
 * a conversation deleted by the recycler or by hand is unreachable from the console (its session
 * answers 404 before any page is asked), and its copies there expire.
 */
const CLOSED_RANGE = 'private, max-age=604800, immutable';

/** A session's conversation: its events by pages, its outline, its search, its live stream. */
export function sessionEventRoutes(table: RouteTable, deps: SessionRoutesDeps): void {
  eventsPage(table, deps);
  outline(table, deps);
  search(table, deps);
  liveStream(table, deps);
}

function eventsPage(table: RouteTable, deps: SessionRoutesDeps): void {
  const { manager, events } = deps;
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
}

function outline(table: RouteTable, deps: SessionRoutesDeps): void {
  const { manager, events } = deps;
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
    handler: async ({ params, query, reply }) => {
      const session = manager.get(params.id);
      const outline = await outlines.get(params.id, agentReader(session.agent).outline);
      if (query.before !== undefined && query.before - 1 <= outline.last_seq)
        reply.header('cache-control', CLOSED_RANGE);
      return sliceOutline(outline, query.after ?? 0, query.before ?? Infinity);
    },
  });
}

function search(table: RouteTable, deps: SessionRoutesDeps): void {
  const { manager, events } = deps;
  table.add({
    method: 'GET',
    url: '/api/sessions/:id/search',
    scope: 'read',
    tag,
    errors: [400, 404],
    summary: `Events whose shown text holds q (case and accents' forms aside), nearest the cursor first; at most ${SCAN_EVENTS} events or ${SCAN_CHARS / 1_000_000} MB looked at per answer (more: ask again from scanned_to)`,
    params: IdParams,
    query: SearchQuery,
    response: SearchPage,
    handler: ({ params, query }) => {
      const session = manager.get(params.id);
      return searchEvents(events, params.id, agentReader(session.agent).text, query);
    },
  });
}

function liveStream(table: RouteTable, deps: SessionRoutesDeps): void {
  const { manager, events, hub } = deps;
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
}
