/**
 * The public API contract shared by the daemon (which validates with it) and the console
 * (which parses responses with it). Pure TypeScript + zod: no Node or browser imports.
 * Over 400 lines: the features with a contract of their own already have a file (usage, mcp,
 * library, permissions…); what remains here is the sessions' core, which issue 36 divides.
 */
import * as z from 'zod';
import { McpServers } from './mcp.js';
import { humanName } from './names.js';

export const ErrorBody = z.object({
  error_code: z.string(),
  message: z.string(),
  retry_after_seconds: z.number().int().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

const isoTime = z.string().describe('ISO 8601 UTC time with milliseconds');
const id = z.string().min(1).max(200);

export const listOf = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), next_cursor: z.string().nullable() });

// ---- health -------------------------------------------------------------------------------

export const Health = z.object({ status: z.literal('ok'), version: z.string() });
export type Health = z.infer<typeof Health>;

// ---- subscriptions --------------------------------------------------------------------------

export const AgentKind = z.enum(['claude', 'codex']);
export type AgentKind = z.infer<typeof AgentKind>;

export const ModelInfo = z.object({
  value: z.string(),
  display_name: z.string(),
  description: z.string().nullable(),
  supported_effort_levels: z.array(z.string()),
});
export type ModelInfo = z.infer<typeof ModelInfo>;

export const Subscription = z.object({
  id,
  name: z.string(),
  agent: AgentKind,
  config_dir: z.string(),
  builtin: z.boolean(),
  account: z.record(z.string(), z.unknown()).nullable(),
  account_key: z.string().nullable().describe('A stable fingerprint of the detected account'),
  models: z.array(ModelInfo),
  detected_at: isoTime.nullable(),
  detect_error: z.string().nullable(),
  shares_account_with: z
    .array(z.string())
    .describe('Ids of other subscriptions on the same account'),
  created_at: isoTime,
  status: z.enum(['active', 'suspended']).describe('Suspended after three failed starts in a row'),
  consecutive_failed_starts: z.number().int(),
  last_error: z.string().nullable().describe("The agent's last error line of a failed start"),
  suspended_at: isoTime.nullable(),
  next_wait_seconds: z.number().int().describe('The wait the next refused launch will suggest'),
});
export type Subscription = z.infer<typeof Subscription>;

export const SubscriptionCreate = z
  .object({
    name: humanName(80),
    agent: AgentKind.default('claude'),
    config_dir: z
      .string()
      .min(1)
      .max(4096)
      .describe('Absolute path of the agent configuration folder'),
  })
  .strict();
export type SubscriptionCreate = z.infer<typeof SubscriptionCreate>;

export const SubscriptionPatch = z
  .object({
    name: humanName(80).optional(),
    config_dir: z.string().min(1).max(4096).optional(),
  })
  .strict();
export type SubscriptionPatch = z.infer<typeof SubscriptionPatch>;

// ---- sessions -------------------------------------------------------------------------------

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

export { McpServer } from './mcp.js';

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

// ---- events ---------------------------------------------------------------------------------

export const EventSource = z.enum(['agent', 'relais', 'host']);
export type EventSource = z.infer<typeof EventSource>;

export const SessionEvent = z.object({
  seq: z.number().int().min(1),
  received_at: isoTime,
  received_at_ms: z.number().int(),
  source: EventSource.describe(
    'agent: a line the agent printed; host: a line Relais wrote to the agent; relais: a daemon event',
  ),
  data: z.unknown().describe('The line as JSON (verbatim for agent lines, unless clipped)'),
  clipped: z
    .literal(true)
    .optional()
    .describe('Some text of the line was cut at the `clip` the reader asked for'),
});
export type SessionEvent = z.infer<typeof SessionEvent>;

const EVENT_SOURCES: ReadonlySet<unknown> = new Set(EventSource.options);

/**
 * `SessionEvent`'s rule written as a check, for readers that take events by the thousand: it
 * gives back the object it was handed, where zod's parse builds a copy, and without `eval` (the
 * console's policy forbids it) zod spends about a kilobyte per event doing so. Unlike the parse,
 * it leaves keys the schema does not name on the object. A test holds both to the same answers.
 */
export function isSessionEvent(value: unknown): value is SessionEvent {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const event = value as Record<string, unknown>;
  return (
    Number.isSafeInteger(event['seq']) &&
    (event['seq'] as number) >= 1 &&
    typeof event['received_at'] === 'string' &&
    Number.isSafeInteger(event['received_at_ms']) &&
    EVENT_SOURCES.has(event['source']) &&
    'data' in event &&
    (event['clipped'] === undefined || event['clipped'] === true)
  );
}

export const EVENTS_PAGE_MAX = 500;
/**
 * A page of events stops before the event that would take it past this much data (about 1 MB of
 * JSON; a single larger event still comes, alone): a few file reads of a real transcript weigh
 * more than hundreds of messages, and a page is parsed whole by whoever asked for it.
 */
export const EVENTS_PAGE_MAX_CHARS = 1_000_000;

/** The least `clip` a reader may ask for: below it a line would lose what tells what it is. */
export const EVENT_CLIP_MIN = 256;
const Clip = z.coerce
  .number()
  .int()
  .min(EVENT_CLIP_MIN)
  .optional()
  .describe(
    'Cut every text of an event longer than this many characters to that length, and mark the event `clipped` (read it whole with after=seq-1&limit=1 and no clip)',
  );

export const EventsQuery = z
  .object({
    after: z.coerce.number().int().min(0).optional(),
    before: z.coerce.number().int().min(1).optional(),
    clip: Clip,
    limit: z.coerce.number().int().min(1).default(200),
  })
  .strict();

export const EventsPage = z.object({
  items: z.array(SessionEvent),
  next_cursor: z.string().nullable(),
  first_seq: z.number().int().nullable().describe('Lowest sequence number of the conversation'),
  last_seq: z.number().int().describe('Highest sequence number of the conversation'),
});
export type EventsPage = z.infer<typeof EventsPage>;

export const Outline = z.object({
  init_seq: z
    .number()
    .int()
    .nullable()
    .describe('The latest system/init line (model, cwd, tools, MCP servers, mode)'),
  turns: z.array(
    z.object({
      turn: z.number().int(),
      seq: z.number().int(),
      received_at: isoTime,
      text: z.string(),
    }),
  ),
  tools: z.array(
    z.object({
      seq: z.number().int(),
      tool_use_id: z.string(),
      name: z.string(),
      summary: z.string(),
    }),
  ),
  last_seq: z.number().int(),
});
export type Outline = z.infer<typeof Outline>;

/** A slice of the outline: the turns and tool calls with after < seq < before (either bound optional). */
export const OutlineQuery = z
  .object({
    after: z.coerce.number().int().min(0).optional(),
    before: z.coerce.number().int().min(1).optional(),
  })
  .strict();

export const StreamQuery = z
  .object({ after: z.coerce.number().int().min(0).default(0), clip: Clip })
  .strict();

// ---- messages and queue ---------------------------------------------------------------------

export const MessageSend = z.object({ text: z.string().min(1).max(100_000) }).strict();

export const QueueEntry = z.object({
  id,
  session_id: z.string(),
  text: z.string(),
  position: z.number().int(),
  created_at: isoTime,
});
export type QueueEntry = z.infer<typeof QueueEntry>;

export const QUEUE_MAX = 10;

export const MessageResult = z.object({
  delivery: z
    .enum(['sent', 'queued', 'steered'])
    .describe(
      'steered: added to the running turn now (Codex), or the turn interrupted and this sent next (Claude)',
    ),
  entry: QueueEntry.nullable(),
});
export type MessageResult = z.infer<typeof MessageResult>;

export const QueueOrder = z.object({ ids: z.array(id).max(QUEUE_MAX) }).strict();

// ---- permissions ----------------------------------------------------------------------------

export const PermissionState = z.enum(['pending', 'allowed', 'denied', 'cancelled']);
export type PermissionState = z.infer<typeof PermissionState>;

export const PermissionRequest = z.object({
  id,
  session_id: z.string(),
  tool_name: z.string(),
  tool_use_id: z.string().nullable(),
  input: z.record(z.string(), z.unknown()),
  description: z.string().nullable(),
  blocked_path: z.string().nullable(),
  is_question: z.boolean(),
  state: PermissionState,
  created_at: isoTime,
  expires_at: isoTime,
  decided_at: isoTime.nullable(),
  decided_by: z.string().nullable(),
  scope: z.enum(['once', 'session', 'always']).nullable(),
  message: z.string().nullable(),
});
export type PermissionRequest = z.infer<typeof PermissionRequest>;

export const PermissionListQuery = z
  .object({
    state: PermissionState.optional(),
    session: z.string().optional(),
    caller: z.string().max(200).optional().describe('Only prompts of sessions this key launched'),
    limit: z.coerce.number().int().min(1).max(500).default(100),
  })
  .strict();

export const PermissionDecisionBody = z
  .object({
    decision: z.enum(['allow', 'deny']),
    scope: z
      .enum(['once', 'session', 'always'])
      .default('once')
      .describe(
        'always: a Network prompt only, allowed: its host and port pass for every session from now on',
      ),
    message: z.string().max(2000).optional(),
    answers: z
      .record(z.string(), z.string())
      .optional()
      .describe('AskUserQuestion: question text → chosen label(s)'),
  })
  .strict();
export type PermissionDecisionBody = z.input<typeof PermissionDecisionBody>;

/** A destination a person allowed "always": a command of any session reaches it without a prompt. */
export const AllowedHost = z.object({
  host: z.string(),
  port: z.number().int(),
  created_at: isoTime,
  decided_by: z.string().describe('Who answered the prompt (the console, the terminal…)'),
});
export type AllowedHost = z.infer<typeof AllowedHost>;

export const AllowedHostParams = z
  .object({
    host: z.string().max(255),
    port: z.coerce.number().int().min(1).max(65_535),
  })
  .strict();

// ---- history import ------------------------------------------------------------------------

export const ImportError = z.object({
  path: z.string(),
  error: z.string().describe('Why the file could not be read, or what was wrong in it'),
});

export const ImportReport = z.object({
  subscription_id: z.string(),
  files: z.number().int().describe('Transcript files found'),
  files_read: z.number().int().describe('Files that had new bytes (an unchanged file is not read)'),
  bytes: z.number().int().describe('Bytes read'),
  lines: z.number().int().describe('Lines stored as events'),
  malformed: z.number().int().describe('Lines that were not JSON (kept as raw events)'),
  turns: z.number().int().describe('Model responses newly counted into the analytics'),
  sessions: z.number().int().describe('Imported conversations created'),
  clamped: z
    .number()
    .int()
    .describe(
      'Values of the new turns out of plausible ranges (tokens, cost, times, names) brought within them',
    ),
  errors: z.array(ImportError),
  duration_ms: z.number().int(),
});
export type ImportReport = z.infer<typeof ImportReport>;

export const ImportProgress = z.object({
  subscription_id: z.string(),
  state: z.enum(['running', 'done']),
  files_total: z.number().int(),
  files_done: z.number().int(),
  bytes_total: z.number().int().describe('Bytes to read in this import'),
  bytes_done: z.number().int(),
  bytes_per_second: z.number(),
  turns: z.number().int(),
  errors: z.number().int(),
  started_at: isoTime,
});
export type ImportProgress = z.infer<typeof ImportProgress>;

// ---- live streams ---------------------------------------------------------------------------

/** One line of the per-session live stream (NDJSON). */
export const SessionStreamLine = z.discriminatedUnion('type', [
  z.object({ type: z.literal('event'), event: SessionEvent }),
  z.object({ type: z.literal('session'), session: Session }),
  z.object({ type: z.literal('keepalive'), at: isoTime }),
]);
export type SessionStreamLine = z.infer<typeof SessionStreamLine>;

/** One line of the global live stream (NDJSON). */
export const GlobalStreamLine = z.discriminatedUnion('type', [
  z.object({ type: z.literal('session'), session: Session }),
  z.object({ type: z.literal('permission'), permission: PermissionRequest }),
  z.object({ type: z.literal('import'), import: ImportProgress }),
  z.object({ type: z.literal('keepalive'), at: isoTime }),
  z
    .object({ type: z.literal('snapshot_end') })
    .describe(
      'Sent once after the open sessions and pending prompts the stream starts with: every line after it is a change',
    ),
]);
export type GlobalStreamLine = z.infer<typeof GlobalStreamLine>;
