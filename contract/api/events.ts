/** A session's events: one stored line each, their pages and the outline. */
import * as z from 'zod';
import { isoTime } from './fields.js';

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
