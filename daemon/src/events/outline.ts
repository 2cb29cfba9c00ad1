import { EVENTS_PAGE_MAX_CHARS, type Outline } from '../../../contract/api.js';
import { nowIso } from '../ids.js';
import type { EventStore, StoredEvent } from './event-store.js';

const PAGE = 500;
const CACHED_SESSIONS = 50;
const TEXT_MAX = 200;

/**
 * The steering outline of a conversation (its context line, turns and tool calls), kept per
 * session and brought up to date from the events added since the last look.
 */
export class OutlineIndex {
  private readonly cache = new Map<string, Outline>();

  constructor(private readonly events: EventStore) {}

  get(sessionId: string): Outline {
    const outline = this.cache.get(sessionId) ?? {
      init_seq: null,
      turns: [],
      tools: [],
      last_seq: 0,
    };
    this.cache.delete(sessionId);
    for (;;) {
      const { items, more } = this.events.readPage(sessionId, {
        after: outline.last_seq,
        limit: PAGE,
        maxChars: EVENTS_PAGE_MAX_CHARS,
      });
      for (const event of items) add(outline, event);
      if (items.length > 0) outline.last_seq = items[items.length - 1]!.seq;
      if (!more) break;
    }
    this.cache.set(sessionId, outline);
    if (this.cache.size > CACHED_SESSIONS) this.cache.delete(this.cache.keys().next().value!);
    return outline;
  }
}

/** The turns and tool calls with after < seq < before; the context line and last seq as they are. */
export function sliceOutline(outline: Outline, after: number, before: number): Outline {
  const inside = (item: { seq: number }): boolean => item.seq > after && item.seq < before;
  return { ...outline, turns: outline.turns.filter(inside), tools: outline.tools.filter(inside) };
}

function add(outline: Outline, event: StoredEvent): void {
  const text = event.data;
  // Cheap text checks first: most lines are none of these, and parsing them all would cost.
  if (
    (event.source === 'host' && text.startsWith('{"type":"user"')) ||
    (event.source === 'agent' && text.includes('"sessionId"') && text.includes('"type":"user"'))
  ) {
    const line = JSON.parse(text) as {
      type?: string;
      isMeta?: boolean;
      isSidechain?: boolean;
      message?: { content?: { type: string; text?: string }[] | string };
    };
    const content = line.message?.content;
    // An imported transcript's prompts (camel-case sessionId): a person's text, not tool results.
    if (event.source === 'agent' && !isTranscriptPrompt(line)) return;
    const said =
      typeof content === 'string' ? content : (content ?? []).map((b) => b.text ?? '').join(' ');
    outline.turns.push({
      turn: outline.turns.length + 1,
      seq: event.seq,
      received_at: nowIso(event.received_at_ms),
      text: said.slice(0, TEXT_MAX),
    });
  } else if (
    event.source === 'agent' &&
    text.includes('"subtype":"init"') &&
    text.includes('"type":"system"')
  ) {
    outline.init_seq = event.seq;
  } else if (
    event.source === 'agent' &&
    text.includes('"tool_use"') &&
    text.includes('"type":"assistant"')
  ) {
    const line = JSON.parse(text) as {
      message?: {
        content?: { type: string; id?: string; name?: string; input?: Record<string, unknown> }[];
      };
    };
    for (const block of line.message?.content ?? []) {
      if (block.type !== 'tool_use' || !block.id) continue;
      outline.tools.push({
        seq: event.seq,
        tool_use_id: block.id,
        name: block.name ?? 'unknown',
        summary: summarize(block.input),
      });
    }
  }
}

function summarize(input: Record<string, unknown> | undefined): string {
  if (!input) return '';
  const value =
    input['command'] ?? input['file_path'] ?? input['path'] ?? input['pattern'] ?? input['url'];
  const text = typeof value === 'string' ? value : JSON.stringify(input);
  return text.length > TEXT_MAX ? `${text.slice(0, TEXT_MAX - 1)}…` : text;
}

function isTranscriptPrompt(line: {
  type?: string;
  isMeta?: boolean;
  isSidechain?: boolean;
  message?: { content?: { type: string }[] | string };
}): boolean {
  if (line.type !== 'user' || line.isMeta || line.isSidechain) return false;
  const content = line.message?.content;
  return typeof content === 'string' || (content ?? []).some((block) => block.type === 'text');
}
