/** Schemas of the operations API: storage, diagnostics, logs, versions. Pure zod. */
import * as z from 'zod';

const isoTime = z.string().describe('ISO 8601 UTC time with milliseconds');

export const ConversationStorage = z.object({
  session_id: z.string(),
  subscription_id: z.string(),
  app: z.string(),
  state: z.string(),
  ended_at: isoTime.nullable(),
  conversation: z.enum(['hot', 'compressed', 'deleted']),
  event_count: z.number().int(),
  bytes: z
    .number()
    .int()
    .describe('Bytes the conversation takes: event text when hot, the archive when compressed'),
  raw_bytes: z.number().int().describe('Bytes of the event text itself'),
  compress_at: isoTime.nullable().describe('When recycling will compress it'),
  delete_at: isoTime.nullable().describe('When recycling will delete it'),
});
export type ConversationStorage = z.infer<typeof ConversationStorage>;

export const StorageCategory = z.enum([
  'events',
  'archives',
  'metrics',
  'audit',
  'logs',
  'sessions',
  'overhead',
]);
export type StorageCategory = z.infer<typeof StorageCategory>;

export const StorageReport = z.object({
  total_bytes: z
    .number()
    .int()
    .describe('Pages in use by the database file (the categories add up to it)'),
  categories: z.array(z.object({ category: StorageCategory, bytes: z.number().int() })),
  files: z.object({ database_bytes: z.number().int(), wal_bytes: z.number().int() }),
  by_subscription: z.array(
    z.object({
      subscription_id: z.string(),
      conversations: z.number().int(),
      bytes: z.number().int(),
      raw_bytes: z.number().int(),
    }),
  ),
  conversations: z.array(ConversationStorage).describe('Largest first'),
  recycling: z.object({
    compress_after_days: z.number(),
    delete_after_days: z.number(),
    last_run_at: isoTime.nullable(),
    next_run_at: isoTime.nullable(),
    last_result: z.object({ compressed: z.number().int(), deleted: z.number().int() }).nullable(),
  }),
});
export type StorageReport = z.infer<typeof StorageReport>;

export const StorageQuery = z
  .object({ limit: z.coerce.number().int().min(1).max(500).default(50) })
  .strict();

export const RecycleResult = z.object({
  compressed: z.number().int(),
  deleted: z.number().int(),
  ran_at: isoTime,
});
export type RecycleResult = z.infer<typeof RecycleResult>;

export const LogLevel = z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal']);
export type LogLevel = z.infer<typeof LogLevel>;

export const LogEntry = z.object({
  id: z.number().int(),
  time: isoTime,
  level: LogLevel,
  msg: z.string(),
  session_id: z.string().nullable(),
  data: z.record(z.string(), z.unknown()).describe('The whole structured log line'),
});
export type LogEntry = z.infer<typeof LogEntry>;

export const LogQuery = z
  .object({
    level: LogLevel.optional().describe('Minimum level'),
    session: z.string().max(200).optional(),
    q: z.string().max(200).optional().describe('Text to find in the line'),
    from: z.iso.datetime().optional(),
    to: z.iso.datetime().optional(),
    before: z.coerce
      .number()
      .int()
      .min(1)
      .optional()
      .describe('Cursor: entries older than this id'),
    limit: z.coerce.number().int().min(1).max(500).default(100),
  })
  .strict();

export const LogStreamQuery = LogQuery.pick({ level: true, session: true, q: true });

export const LogPage = z.object({ items: z.array(LogEntry), next_cursor: z.string().nullable() });

export const LogStreamLine = z.discriminatedUnion('type', [
  z.object({ type: z.literal('log'), log: LogEntry }),
  z.object({ type: z.literal('keepalive'), at: isoTime }),
]);

export const IsolationReport = z
  .object({
    enabled: z.boolean().describe('false when Relais was started with RELAIS_ISOLATION=off'),
    available: z.boolean().describe('whether this machine can confine commands now'),
    problem: z.string().nullable().describe('what is missing, for a person'),
    install: z.string().nullable().describe('the command that installs it'),
    agents: z.array(
      z.object({
        agent: z.enum(['claude', 'codex']),
        mechanism: z.string(),
        version: z.string().nullable(),
      }),
    ),
  })
  .describe("How each agent's commands are confined by the operating system");
export type IsolationReport = z.infer<typeof IsolationReport>;

export const Diagnostics = z.object({
  relais_version: z.string(),
  node_version: z.string(),
  sqlite_version: z.string(),
  claude_code_version: z.string().nullable(),
  pid: z.number().int(),
  port: z.number().int(),
  data_dir: z.string(),
  started_at: isoTime,
  uptime_seconds: z.number(),
  active_agents: z.object({
    count: z.number().int(),
    sessions: z.array(
      z.object({ session_id: z.string(), pid: z.number().int().nullable(), state: z.string() }),
    ),
  }),
  sessions_by_state: z.record(z.string(), z.number().int()),
  database: z.object({ database_bytes: z.number().int(), wal_bytes: z.number().int() }),
  rss_bytes: z.number().int(),
  containment: z
    .object({
      mechanism: z.enum(['cgroup', 'tag']),
      detail: z.string(),
    })
    .describe(
      'How everything a session starts is kept and ended: a cgroup per session, or only the process group and an environment tag (weaker: a tool that scrubs both escapes)',
    ),
  isolation: IsolationReport,
});
export type Diagnostics = z.infer<typeof Diagnostics>;

export const VersionCard = z.object({
  agent: z.string(),
  package: z.string(),
  pinned: z.string().nullable(),
  latest: z.string().nullable(),
  checked_at: isoTime.nullable(),
  status: z
    .enum(['same', 'newer', 'unknown'])
    .describe('newer = published but not yet validated by Relais'),
  reason: z.string().nullable(),
});
export type VersionCard = z.infer<typeof VersionCard>;

export const VersionsQuery = z.object({ refresh: z.enum(['true', 'false']).optional() }).strict();
