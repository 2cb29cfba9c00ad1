/** A session: its row, launching, resuming, listing and patching it. */
import * as z from 'zod';
import { isoTime, id } from './fields.js';
import { McpServers } from '../mcp.js';
import { humanName } from '../names.js';
import { AgentKind } from './subscriptions.js';

export const PermissionMode = z.enum(['read_only', 'write', 'dry_run']);
export type PermissionMode = z.infer<typeof PermissionMode>;

export const Effort = z.enum(['low', 'medium', 'high', 'xhigh', 'max']);
export type Effort = z.infer<typeof Effort>;

export const SessionState = z.enum(['starting', 'idle', 'working', 'waiting', 'stopping', 'ended']);
export type SessionState = z.infer<typeof SessionState>;

export const EndReason = z.enum([
  'stopped',
  'expired',
  'agent_exited',
  'start_failed',
  'daemon_restart',
  'daemon_shutdown',
]);
export type EndReason = z.infer<typeof EndReason>;

export const SessionOrigin = z.enum(['relais', 'imported']);
export type SessionOrigin = z.infer<typeof SessionOrigin>;

/** Who launched a session: a caller key (its id and name); null for the owner. */
export const CallerRef = z.object({ id: z.string(), name: z.string() });
export type CallerRef = z.infer<typeof CallerRef>;

export const Session = z.object({
  id,
  origin: SessionOrigin.describe(
    "relais: launched by Relais; imported: read from the subscription's own transcripts (started before or outside Relais)",
  ),
  subscription_id: z.string(),
  agent: AgentKind,
  model: z.string(),
  cwd: z.string(),
  effort: Effort.nullable(),
  permission_mode: PermissionMode,
  app: z.string(),
  caller: CallerRef.nullable()
    .optional()
    .describe('The caller key that launched it (its name is the app); null: the owner'),
  title: z.string().nullable().describe('A name for people: the first prompt unless renamed'),
  state: SessionState,
  end_reason: EndReason.nullable(),
  end_detail: z.string().nullable(),
  agent_session_id: z.string().nullable(),
  pid: z.number().int().nullable(),
  created_at: isoTime,
  ended_at: isoTime.nullable(),
  deadline_at: isoTime,
  max_deadline_at: isoTime,
  last_seq: z.number().int(),
  queue_length: z.number().int(),
  pending_permissions: z.number().int(),
  turns: z.number().int(),
  transcript_bytes: z
    .number()
    .int()
    .nullable()
    .describe('Imported sessions: bytes of the transcript files read; null for Relais sessions'),
  isolated: z
    .boolean()
    .nullable()
    .describe(
      "true: the session's commands run confined by the operating system; false: started with RELAIS_ISOLATION=off; null: imported, or started before confinement",
    ),
  confined_without_asking: z
    .boolean()
    .describe('Commands no rule decides run without a prompt (confined by the operating system)'),
});
export type Session = z.infer<typeof Session>;

export { McpServer } from '../mcp.js';

/** The name of the tool that launched a session (launch body `app` or header X-Relais-App). */
export const AppName = humanName(80);

export const SessionLaunch = z
  .object({
    subscription_id: id,
    model: humanName(200),
    cwd: z.string().min(1).max(4096),
    effort: Effort.optional(),
    permission_mode: PermissionMode.default('write'),
    ttl_seconds: z
      .number()
      .int()
      .min(10)
      .max(7 * 24 * 3600)
      .optional()
      .describe(
        "Seconds to the deadline; above the daemon's maximum (RELAIS_MAX_TTL_SECONDS) it is refused. Default 3600, or the maximum when shorter",
      ),
    prompt: z.string().max(100_000).optional(),
    app: AppName.optional(),
    mcp_servers: McpServers.optional(),
    confined_without_asking: z
      .boolean()
      .optional()
      .describe(
        'Run the commands no rule decides without asking a person, since they run confined by the operating system; the deny and ask rules still apply first. Refused (409) when isolation is off',
      ),
  })
  .strict();
export type SessionLaunch = z.input<typeof SessionLaunch>;

export const LaunchWaitQuery = z
  .object({ app: AppName.optional().describe('Default: the X-Relais-App header') })
  .strict();
export const LaunchWait = z.object({
  subscription_id: z.string(),
  app: z.string(),
  wait_seconds: z
    .number()
    .int()
    .describe(
      "Seconds until the launch brake lets this app launch on this subscription; 0: now (suspension is the subscription's own status)",
    ),
});
export type LaunchWait = z.infer<typeof LaunchWait>;

export const SessionResume = z
  .object({
    model: humanName(200).optional().describe("Default: the conversation's own model"),
    cwd: z.string().min(1).max(4096).optional().describe("Default: the conversation's own folder"),
    effort: Effort.optional().describe("Default: the session's own effort"),
    permission_mode: PermissionMode.optional().describe(
      "Default: the session's own mode; write for an imported conversation",
    ),
    ttl_seconds: z
      .number()
      .int()
      .min(10)
      .max(7 * 24 * 3600)
      .optional(),
    prompt: z.string().max(100_000).optional(),
    app: AppName.optional(),
  })
  .strict();
export type SessionResume = z.input<typeof SessionResume>;

export const SessionListQuery = z
  .object({
    state: SessionState.optional(),
    subscription: z.string().optional(),
    app: z.string().optional(),
    origin: SessionOrigin.optional(),
    caller: z.string().max(200).optional().describe('Only sessions launched by this key id'),
    limit: z.coerce.number().int().min(1).max(500).default(100),
    cursor: z.string().optional(),
  })
  .strict();

/** Longest session title, in characters. */
export const TITLE_MAX = 120;
/** Control characters, and the direction overrides that can make a title read as another. */
export const UNPRINTABLE = /[\p{Cc}\u202a-\u202e\u2066-\u2069]/u;

/** A title: trimmed, one line of printable text (no control characters), at most TITLE_MAX. */
export const SessionTitle = z
  .string()
  .trim()
  .min(1)
  .max(TITLE_MAX)
  .refine(
    (text) => !UNPRINTABLE.test(text),
    'A title has no control characters (tabs, new lines…).',
  );

export const SessionPatch = z
  .object({
    title: SessionTitle.nullable().describe('null removes the title'),
  })
  .strict();

export const Heartbeat = z
  .object({
    extend_seconds: z
      .number()
      .int()
      .min(1)
      .max(7 * 24 * 3600)
      .optional(),
  })
  .strict();
