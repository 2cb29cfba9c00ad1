import type { Containment } from '../processes/containment.js';
import type { IsolationReport } from '../../../contract/operations.js';
import { statSync } from 'node:fs';
import {
  Diagnostics,
  LogPage,
  LogQuery,
  LogStreamLine,
  LogStreamQuery,
  VersionCard,
  VersionsQuery,
} from '../../../contract/operations.js';
import { z } from 'zod';
import { sqliteVersion, type Db } from '../db/database.js';
import type { SessionRepo } from '../sessions/session-repo.js';
import type { RouteTable } from '../http/route.js';
import { NDJSON, openNdjsonStream } from '../http/ndjson-stream.js';
import type { VersionChecker } from '../versions/version-check.js';
import { matchesLog, queryLogs } from './log-query.js';
import type { LogSink } from './log-sink.js';

export interface DiagnosticsDeps {
  db: Db;
  sessions: Pick<SessionRepo, 'countByState'>;
  databaseFile: string;
  home: string;
  version: string;
  startedAtMs: number;
  port: () => number;
  liveAgents: () => { session_id: string; pid: number | null; state: string }[];
  logs: LogSink;
  versions: VersionChecker;
  containment: Pick<Containment, 'mechanism' | 'detail'>;
  isolation: () => IsolationReport;
  /** The pinned Claude Code's version (the contract's claude_code_version), null when absent. */
  claudeCodeVersion: () => string | null;
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0; // No WAL file between checkpoints.
  }
}

const tag = 'diagnostics';

/** The daemon's own state, its logs (a page or a live tail), and the pinned agents' versions. */
export function diagnosticsRoutes(table: RouteTable, deps: DiagnosticsDeps): void {
  table.add({
    method: 'GET',
    url: '/api/diagnostics',
    tag,
    summary: 'Engine, port, uptime, active agents, sessions by state, database size',
    response: Diagnostics,
    handler: () => diagnosticsReport(deps),
  });
  logRoutes(table, deps);
  table.add({
    method: 'GET',
    url: '/api/versions',
    tag,
    summary: "Pinned agent versions against the registry's latest (asked through npm, cached)",
    query: VersionsQuery,
    response: z.object({ items: z.array(VersionCard), next_cursor: z.null() }),
    handler: async ({ query }) => ({
      items: await deps.versions.get(query.refresh === 'true'),
      next_cursor: null,
    }),
  });
}

function diagnosticsReport(deps: DiagnosticsDeps): z.input<typeof Diagnostics> {
  const agents = deps.liveAgents();
  const byState = deps.sessions.countByState();
  return {
    relais_version: deps.version,
    node_version: process.version,
    sqlite_version: sqliteVersion(deps.db),
    claude_code_version: deps.claudeCodeVersion(),
    pid: process.pid,
    port: deps.port(),
    data_dir: deps.home,
    started_at: new Date(deps.startedAtMs).toISOString(),
    uptime_seconds: Math.round((Date.now() - deps.startedAtMs) / 100) / 10,
    active_agents: { count: agents.length, sessions: agents },
    sessions_by_state: byState,
    database: {
      database_bytes: sizeOf(deps.databaseFile),
      wal_bytes: sizeOf(`${deps.databaseFile}-wal`),
    },
    rss_bytes: process.memoryUsage().rss,
    containment: { mechanism: deps.containment.mechanism, detail: deps.containment.detail },
    isolation: deps.isolation(),
  };
}

function logRoutes(table: RouteTable, deps: DiagnosticsDeps): void {
  table.add({
    method: 'GET',
    url: '/api/logs',
    tag,
    summary: 'The daemon logs, newest first, filtered by level, session, text and time',
    query: LogQuery,
    response: LogPage,
    handler: ({ query }) => {
      deps.logs.flush();
      return queryLogs(deps.db, query);
    },
  });
  table.add({
    method: 'GET',
    url: '/api/logs/stream',
    tag,
    summary: 'Live tail of the logs (NDJSON), with the same filters',
    query: LogStreamQuery,
    stream: { contentType: NDJSON, line: LogStreamLine },
    handler: ({ query, request, reply }) => {
      const stream = openNdjsonStream(request, reply);
      const unsubscribe = deps.logs.subscribe((log) => {
        if (matchesLog(log, query)) void stream.write(JSON.stringify({ type: 'log', log }));
      });
      stream.onClose(unsubscribe);
    },
  });
}
