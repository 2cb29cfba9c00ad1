import { EVENTS_PAGE_MAX_CHARS, type Outline } from '../../../contract/api.js';
import { nowIso } from '../ids.js';
import type { EventStore, StoredEvent } from './event-store.js';

const PAGE = 500;
const CACHED_SESSIONS = 50;
const TEXT_MAX = 200;

/**
 * The steering outline of a conversation (its context line, turns and tool calls), kept per
 * session and brought up to date from the events added since the last look. A first look reads
 * the whole conversation (a 10,000-event one with long tool outputs held the daemon 0.7 s in one
 * piece): it goes a page at a time and lets the daemon answer others between pages (a message, a
 * prompt's answer, a hook waiting on a decision), and the looks that come meanwhile share it.
 */
export class OutlineIndex {
  private readonly cache = new Map<string, Outline>();
  private readonly building = new Map<string, Promise<Outline>>();

  constructor(private readonly events: EventStore) {}

  /** The outline of a session whose events `read` understands (its agent's reader). */
  get(sessionId: string, read: OutlineReader): Promise<Outline> {
    const running = this.building.get(sessionId);
    if (running) return running;
    const build = this.bringUpToDate(sessionId, read).finally(() =>
      this.building.delete(sessionId),
    );
    this.building.set(sessionId, build);
    return build;
  }

  private async bringUpToDate(sessionId: string, read: OutlineReader): Promise<Outline> {
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
      for (const event of items) add(outline, event, read);
      if (items.length > 0) outline.last_seq = items[items.length - 1]!.seq;
      if (!more) break;
      await new Promise((resolve) => setImmediate(resolve));
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

/** What one stored event adds to a conversation's outline, as its agent reads it. */
export interface OutlineMark {
  /** A person's prompt: a new turn, with its text. */
  turn?: string;
  /** Tool calls the agent made. */
  tools?: { id: string; name: string; input: Record<string, unknown> | undefined }[];
  /** The line is the session's context (model, cwd, tools). */
  init?: boolean;
}

/** An agent's reading of its stored events for the outline (null: the event adds nothing). */
export type OutlineReader = (event: StoredEvent) => OutlineMark | null;

function add(outline: Outline, event: StoredEvent, read: OutlineReader): void {
  const mark = read(event);
  if (!mark) return;
  if (mark.init) outline.init_seq = event.seq;
  if (mark.turn !== undefined)
    outline.turns.push({
      turn: outline.turns.length + 1,
      seq: event.seq,
      received_at: nowIso(event.received_at_ms),
      text: mark.turn.slice(0, TEXT_MAX),
    });
  for (const tool of mark.tools ?? [])
    outline.tools.push({
      seq: event.seq,
      tool_use_id: tool.id,
      name: tool.name,
      summary: summarize(tool.input),
    });
}

/** The part of a call's input that says what it does: its command, path, pattern or address. */
function summarize(input: Record<string, unknown> | undefined): string {
  if (!input) return '';
  const value =
    input['command'] ??
    input['cmd'] ??
    input['file_path'] ??
    input['path'] ??
    input['pattern'] ??
    input['url'];
  const text = typeof value === 'string' ? value : JSON.stringify(input);
  return text.length > TEXT_MAX ? `${text.slice(0, TEXT_MAX - 1)}…` : text;
}
