import {
  AnalyticsBreakdown,
  AnalyticsFilter,
  AnalyticsSummary,
  AnalyticsTimeseries,
  BreakdownQuery,
  ExportQuery,
  TimeseriesQuery,
  TurnRow,
  TurnsPage,
  TurnsQuery,
} from '../../../contract/usage.js';
import type { RouteTable } from '../http/route.js';
import { apiError } from '../http/errors.js';
import type { AnalyticsRepo } from './analytics-repo.js';
import { streamExport } from './export.js';
import { pickFilter } from './filters.js';

const CURSOR = /^\d+\.\d+$/;
const tag = 'analytics';

/** `flush` writes the turns still buffered, so that the export's own connection sees them. */
export function analyticsRoutes(
  table: RouteTable,
  repo: AnalyticsRepo,
  dbFile: string,
  flush: () => void,
): void {
  figureRoutes(table, repo);
  turnRoutes(table, repo, dbFile, flush);
}

/** Figures summed over the filtered turns: in all, over time, by a dimension. */
function figureRoutes(table: RouteTable, repo: AnalyticsRepo): void {
  table.add({
    method: 'GET',
    url: '/api/analytics/summary',
    scope: 'read',
    tag,
    summary:
      'Turns, sessions, tokens by kind, estimated cost, median/P95 turn duration, cache hit rate, errors, per-tool figures',
    query: AnalyticsFilter,
    response: AnalyticsSummary,
    handler: ({ query }) => repo.summary(query),
  });
  table.add({
    method: 'GET',
    url: '/api/analytics/timeseries',
    scope: 'read',
    tag,
    summary:
      'Figures per time bucket; the bucket is chosen so that the series has at most max_points (≤ 3000) points',
    query: TimeseriesQuery,
    response: AnalyticsTimeseries,
    handler: ({ query }) => repo.timeseries(pickFilter(query), query.max_points),
  });
  table.add({
    method: 'GET',
    url: '/api/analytics/breakdown',
    scope: 'read',
    tag,
    summary:
      'Figures per model, subscription, app, agent (turns) or tool (tool calls), for cost comparison',
    query: BreakdownQuery,
    response: AnalyticsBreakdown,
    handler: ({ query }) => {
      const filter = pickFilter(query);
      if (query.by === 'tool') return { by: 'tool', items: repo.tools(filter) };
      return { by: query.by, items: repo.breakdown(filter, query.by) };
    },
  });
}

/** The filtered turns themselves: in pages, or exported whole. */
function turnRoutes(
  table: RouteTable,
  repo: AnalyticsRepo,
  dbFile: string,
  flush: () => void,
): void {
  table.add({
    method: 'GET',
    url: '/api/analytics/turns',
    scope: 'read',
    tag,
    summary: 'Turns, newest first, in pages (cursor = next_cursor)',
    query: TurnsQuery,
    response: TurnsPage,
    handler: ({ query }) => {
      if (query.cursor !== undefined && !CURSOR.test(query.cursor))
        throw apiError('invalid_request', 'query cursor: not a cursor this API gave');
      return repo.turns(pickFilter(query), query.limit, query.cursor);
    },
  });
  table.add({
    method: 'GET',
    url: '/api/analytics/export',
    scope: 'read',
    tag,
    summary:
      'Streams the filtered turns, oldest first: csv (RFC 4180, header row, UTF-8, CRLF), json (one array) or ndjson (one turn per line)',
    query: ExportQuery,
    stream: { contentType: 'text/csv', line: TurnRow },
    handler: async ({ query, reply }) => {
      flush();
      await streamExport(dbFile, pickFilter(query), query.format, reply);
    },
  });
}
