/**
 * Consumption, quotas and analytics: the API contract (pure zod, shared with the console).
 * Costs are ESTIMATES from a price table in the daemon; `null` cost means unknown, never zero.
 */
import * as z from 'zod';

const isoTime = z.string().describe('ISO 8601 UTC time with milliseconds');
const name = z.string().min(1).max(200);
/** Comma-separated values are OR-ed; different filters are AND-ed. */
const oneOrMore = z
  .string()
  .min(1)
  .max(2000)
  .transform((value) =>
    value
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean),
  )
  .pipe(z.array(name).min(1).max(50));
const instant = z.iso.datetime({ offset: true }).describe('ISO 8601 time');

export const ANALYTICS_FILTER_KEYS = [
  'agent',
  'model',
  'tool',
  'subscription',
  'app',
  'caller',
  'from',
  'to',
  'error',
  'origin',
] as const;

export { IMPORTED_APP } from './origin.js';

const filterShape = {
  agent: oneOrMore.optional().describe('Agent kind(s), comma-separated'),
  model: oneOrMore.optional().describe('Model id(s) of the turn, comma-separated'),
  tool: oneOrMore.optional().describe('Only turns that called one of these tools'),
  subscription: oneOrMore.optional().describe('Subscription id(s)'),
  app: oneOrMore.optional().describe('Requesting app(s)'),
  caller: oneOrMore
    .optional()
    .describe('Id(s) of the caller keys that launched the sessions (a key reads only its own)'),
  from: instant.optional().describe('Turns started at or after this time'),
  to: instant.optional().describe('Turns started before this time'),
  error: z
    .enum(['yes', 'no'])
    .optional()
    .describe('yes: failed turns only; no: successful ones only'),
  origin: z
    .enum(['relais', 'imported'])
    .optional()
    .describe(
      'relais: turns of sessions Relais ran (every app but "imported", whichever appear later); imported: turns read from transcripts',
    ),
};

const checkPeriod = (value: { from?: string; to?: string }, ctx: z.RefinementCtx): void => {
  if (value.from && value.to && Date.parse(value.from) >= Date.parse(value.to)) {
    ctx.addIssue({ code: 'custom', path: ['from'], message: 'from must be earlier than to' });
  }
};

export const AnalyticsFilter = z.object(filterShape).strict().superRefine(checkPeriod);
export type AnalyticsFilter = z.output<typeof AnalyticsFilter>;

export const BreakdownBy = z.enum(['model', 'subscription', 'app', 'agent', 'tool']);
export type BreakdownBy = z.infer<typeof BreakdownBy>;
export const BreakdownQuery = z
  .object({ ...filterShape, by: BreakdownBy })
  .strict()
  .superRefine(checkPeriod);
export const TimeseriesQuery = z
  .object({
    ...filterShape,
    max_points: z.coerce
      .number()
      .int()
      .min(10)
      .max(3000)
      .default(3000)
      .describe('Upper bound on the number of buckets'),
  })
  .strict()
  .superRefine(checkPeriod);
export const TurnsQuery = z
  .object({
    ...filterShape,
    limit: z.coerce.number().int().min(1).max(500).default(100),
    cursor: z.string().max(100).optional().describe('next_cursor of the previous page'),
  })
  .strict()
  .superRefine(checkPeriod);
export const ExportFormat = z.enum(['csv', 'json', 'ndjson']);
export const ExportQuery = z
  .object({ ...filterShape, format: ExportFormat.default('csv') })
  .strict()
  .superRefine(checkPeriod);

export const Tokens = z.object({
  input: z.number().int(),
  output: z.number().int(),
  cache_read: z.number().int(),
  cache_creation: z.number().int(),
});
export type Tokens = z.infer<typeof Tokens>;

export const Durations = z.object({
  median_ms: z.number().nullable(),
  p95_ms: z.number().nullable().describe('95th percentile, linear interpolation between ranks'),
  approximate: z
    .boolean()
    .optional()
    .describe(
      "true when median and P95 come from the rollups' duration histograms (log-spaced buckets 4 % wide): " +
        'each is then within 2 % (relative) of the exact value; absent or false: exact',
    ),
});

export const CostEstimate = z.object({
  estimate_usd: z
    .number()
    .describe('Sum over turns whose cost is known; an estimate, not an invoice'),
  unknown_cost_turns: z
    .number()
    .int()
    .describe('Turns whose model is missing from the price table'),
  label: z.literal('estimate'),
});

export const ToolStats = z.object({
  tool_name: z.string(),
  calls: z.number().int(),
  errors: z.number().int(),
  denied: z.number().int().describe('Calls a person, rule or config refused'),
  turns: z.number().int(),
  duration: Durations.describe('tool_use seen → tool_result seen, completed calls only'),
});
export type ToolStats = z.infer<typeof ToolStats>;

export const AnalyticsSummary = z.object({
  turns: z.number().int(),
  sessions: z.number().int(),
  model_calls: z.number().int(),
  tokens: Tokens,
  cost: CostEstimate,
  duration: Durations,
  cache_hit_rate: z
    .number()
    .nullable()
    .describe('cache_read / (input + cache_read + cache_creation); null with no input'),
  errors: z.object({ count: z.number().int(), rate: z.number().nullable() }),
  tools: z.array(ToolStats),
});
export type AnalyticsSummary = z.infer<typeof AnalyticsSummary>;

export const TimeseriesPoint = z.object({
  t: isoTime.describe('Bucket start'),
  turns: z.number().int(),
  tokens: Tokens,
  cost_estimate_usd: z.number(),
  errors: z.number().int(),
  duration: Durations,
  cache_hit_rate: z.number().nullable(),
});
export const AnalyticsTimeseries = z.object({
  from: isoTime.nullable(),
  to: isoTime.nullable(),
  bucket: z.string().describe('Bucket width, e.g. 1m, 15m, 1h, 1d'),
  bucket_ms: z.number().int(),
  points: z
    .array(TimeseriesPoint)
    .describe('Every bucket from `from` to `to`, empty ones included'),
});
export type AnalyticsTimeseries = z.infer<typeof AnalyticsTimeseries>;

export const TurnBreakdownRow = z.object({
  key: z.string(),
  turns: z.number().int(),
  sessions: z.number().int(),
  tokens: Tokens,
  cost: CostEstimate,
  errors: z.number().int(),
  duration: Durations,
});
export const AnalyticsBreakdown = z.union([
  z.object({
    by: z.enum(['model', 'subscription', 'app', 'agent']),
    items: z.array(TurnBreakdownRow),
  }),
  z.object({ by: z.literal('tool'), items: z.array(ToolStats) }),
]);
export type AnalyticsBreakdown = z.infer<typeof AnalyticsBreakdown>;

export const TurnRow = z.object({
  id: z.number().int(),
  session_id: z.string(),
  subscription_id: z.string(),
  agent: z.string(),
  model: z.string(),
  models: z.string().describe('Every model of the turn, comma-separated'),
  app: z.string(),
  permission_mode: z.string(),
  started_at: isoTime,
  ended_at: isoTime,
  duration_ms: z.number().int(),
  model_calls: z.number().int(),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  cache_read_tokens: z.number().int(),
  cache_creation_tokens: z.number().int(),
  cost_estimate_usd: z.number().nullable().describe('null = unknown'),
  is_error: z.boolean(),
  error_kind: z.string().nullable(),
  error_message: z.string().nullable(),
  tool_calls: z.number().int(),
  reasoning_tokens: z
    .number()
    .int()
    .nullable()
    .describe(
      'Of the output tokens, those the model spent reasoning; null = not reported (Claude)',
    ),
});
export type TurnRow = z.infer<typeof TurnRow>;
export const TurnsPage = z.object({ items: z.array(TurnRow), next_cursor: z.string().nullable() });

// ---- quotas --------------------------------------------------------------------------------

export const QuotaStatus = z.enum(['fresh', 'stale', 'unknown']);
export const QuotaWindow = z.object({
  window: z.string().describe('five_hour, seven_day, seven_day_opus, … as the provider names them'),
  utilization: z
    .number()
    .nullable()
    .describe('Percent 0–100 (may pass 100); null when unknown, never 0 for unknown'),
  resets_at: isoTime.nullable(),
  read_at: isoTime.nullable(),
  status: QuotaStatus,
  source: z.enum(['usage_endpoint', 'stream', 'none']),
});
export type QuotaWindow = z.infer<typeof QuotaWindow>;
export const SubscriptionQuota = z.object({
  subscription_id: z.string(),
  windows: z.array(QuotaWindow),
  poll: z.object({
    enabled: z
      .boolean()
      .describe('False when the subscription has no OAuth token to ask the endpoint with'),
    last_attempt_at: isoTime.nullable(),
    last_error: z.string().nullable(),
    next_attempt_at: isoTime.nullable(),
  }),
});
export type SubscriptionQuota = z.infer<typeof SubscriptionQuota>;
export const QuotasAnswer = z.object({
  items: z.array(SubscriptionQuota),
  next_cursor: z.null(),
  stale_after_seconds: z.number().int(),
});
export type QuotasAnswer = z.infer<typeof QuotasAnswer>;

const percent = (what: string) => z.number().describe(`${what} (percent of the window)`);

/** One window as admission weighed it. */
export const AdmissionWindow = z.object({
  window: z.string(),
  utilization: percent('The latest reading'),
  read_at: isoTime,
  read_age_seconds: z.number().int().describe('How old the reading was when the decision was made'),
  reading_status: z.enum(['fresh', 'stale']),
  resets_at: isoTime.nullable(),
  percent_per_million_units: z
    .number()
    .describe('What a million usage units cost this window, learned or the prior'),
  rate_source: z
    .enum(['learned', 'prior'])
    .describe(
      'learned: from how the window moved between readings while Relais sessions ran; prior: the stated prior of the agent and plan',
    ),
  learned_from_sessions: z
    .number()
    .int()
    .describe('Sessions whose usage is in the evidence used (0 with the prior)'),
  rate_per_session: percent('What an average session costs'),
  used_since_reading: percent('What Relais recorded after the reading was taken'),
  reserved_running: percent('What running sessions may still use'),
  reserved_new: percent('What the new session reserves'),
  projected: percent('Reading + used since + reservations'),
});
export type AdmissionWindow = z.infer<typeof AdmissionWindow>;

/**
 * The figures a launch decision used. The flat fields describe the binding window (the one projected
 * highest); `windows` has every window weighed.
 */
export const AdmissionFigures = z.object({
  window: z.string().nullable(),
  utilization: z.number().nullable(),
  read_at: isoTime.nullable(),
  read_age_seconds: z.number().int().nullable(),
  reading_status: z.enum(['fresh', 'stale']).nullable(),
  running_sessions: z.number().int(),
  units_per_session: z
    .number()
    .describe('Average usage units of the last 40 ended sessions, or the prior when none ended'),
  sessions_averaged: z.number().int().describe('Ended sessions in that average (0: the prior)'),
  rate_per_session: z
    .number()
    .nullable()
    .describe('Percent points an average session costs the binding window'),
  rate_source: z.enum(['learned', 'prior']).nullable(),
  learned_from_sessions: z.number().int().nullable(),
  used_since_reading: z.number(),
  reserved_running: z.number(),
  reserved_new: z.number(),
  reserved: z.number().describe('reserved_running + reserved_new'),
  projected: z.number().nullable(),
  threshold: z.number(),
  windows: z.array(AdmissionWindow),
});
export type AdmissionFigures = z.infer<typeof AdmissionFigures>;

export const AdmissionQuery = z.object({ subscription_id: z.string().min(1).max(200) }).strict();
export const AdmissionAnswer = z.object({
  subscription_id: z.string(),
  admit: z.boolean(),
  reason: z.enum(['no_reading', 'within_threshold', 'would_pass_threshold']),
  message: z.string(),
  figures: AdmissionFigures,
  retry_after_seconds: z.number().int().nullable(),
});
export type AdmissionAnswer = z.infer<typeof AdmissionAnswer>;
