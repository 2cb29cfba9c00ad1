import { Outline, SessionEvent } from '../../../../contract/api';
import { decoderFor, outlineMark } from '../../../../contract/formats';
import { InitLine } from './agent-lines';

export interface TurnEntry {
  turn: number;
  seq: number;
  text: string;
}
export interface ToolEntry {
  seq: number;
  id: string;
  name: string;
  summary: string;
}
export interface ConversationIndex {
  turns: TurnEntry[];
  tools: ToolEntry[];
  init: { seq: number; init: InitLine } | null;
  /** The last seq scanned; the index covers 1..scannedTo. */
  scannedTo: number;
}

export const emptyIndex = (): ConversationIndex => ({
  turns: [],
  tools: [],
  init: null,
  scannedTo: 0,
});

/** A turn as the index lists it: its prompt cut to one line's length. */
function turnEntry(turn: number, seq: number, text: string): TurnEntry {
  return { turn, seq, text: text.length > 80 ? text.slice(0, 77) + '…' : text };
}

/** One line describing a tool call: its command, path or pattern. */
export function toolSummary(input: Record<string, unknown>): string {
  for (const field of [
    'command',
    'cmd',
    'file_path',
    'notebook_path',
    'path',
    'pattern',
    'url',
    'query',
    'description',
  ]) {
    const value = input[field];
    if (typeof value === 'string' && value)
      return value.length > 120 ? value.slice(0, 117) + '…' : value;
  }
  return '';
}

/**
 * Adds events (in seq order, after `scannedTo`) to the index: turns, tool calls and the first
 * context, read as the daemon's outline reads them (contract/formats), by the session's agent.
 */
export function extendIndex(
  index: ConversationIndex,
  events: readonly SessionEvent[],
  agent: unknown,
): ConversationIndex {
  const decode = decoderFor(agent);
  const turns = [...index.turns];
  const tools = [...index.tools];
  let init = index.init;
  let scannedTo = index.scannedTo;
  for (const event of events) {
    if (event.seq <= scannedTo) continue;
    scannedTo = event.seq;
    if (event.source === 'relais') continue;
    const mark = outlineMark(decode(event.data, event.source), event.seq);
    if (mark?.turn !== undefined) turns.push(turnEntry(turns.length + 1, event.seq, mark.turn));
    for (const { id, name, input } of mark?.tools ?? [])
      tools.push({ seq: event.seq, id, name, summary: toolSummary(input) });
    if (mark?.init && !init) {
      const parsed = InitLine.safeParse(event.data);
      if (parsed.success) init = { seq: event.seq, init: parsed.data };
    }
  }
  return { turns, tools, init, scannedTo };
}

/** The index as the daemon's outline gives it, with the context line read from its event. */
export function indexFromOutline(
  outline: Outline,
  contextEvent: SessionEvent | null,
): ConversationIndex {
  const parsed = contextEvent ? InitLine.safeParse(contextEvent.data) : null;
  return {
    turns: outline.turns.map((t) => turnEntry(t.turn, t.seq, t.text)),
    tools: outline.tools.map((t) => ({
      seq: t.seq,
      id: t.tool_use_id,
      name: t.name,
      summary: t.summary,
    })),
    init: parsed?.success && contextEvent ? { seq: contextEvent.seq, init: parsed.data } : null,
    scannedTo: outline.last_seq,
  };
}

export interface OutlineSlice {
  after: number;
  before?: number;
}

/**
 * How to read the outline of a conversation whose last seq is `lastSeq`: full slices of `size`
 * seqs (wholly past, so the browser keeps them for good), then the open rest.
 */
export function outlineSlices(lastSeq: number, size: number): OutlineSlice[] {
  const slices: OutlineSlice[] = [];
  let after = 0;
  for (; after + size <= lastSeq; after += size) slices.push({ after, before: after + size + 1 });
  slices.push({ after });
  return slices;
}

/** Slices read in order, as one outline; the context line and last seq are the newest slice's. */
export function joinOutlines(parts: readonly Outline[]): Outline {
  const newest = parts.at(-1);
  return {
    init_seq: newest?.init_seq ?? null,
    turns: parts.flatMap((part) => part.turns),
    tools: parts.flatMap((part) => part.tools),
    last_seq: newest?.last_seq ?? 0,
  };
}

/** Tool calls grouped by tool name, most used first. */
export function toolsByName(tools: readonly ToolEntry[]): { name: string; calls: ToolEntry[] }[] {
  const groups = new Map<string, ToolEntry[]>();
  for (const tool of tools) {
    const calls = groups.get(tool.name);
    if (calls) calls.push(tool);
    else groups.set(tool.name, [tool]);
  }
  return [...groups.entries()]
    .map(([name, calls]) => ({ name, calls }))
    .sort((a, b) => b.calls.length - a.calls.length);
}
