import { SessionEvent } from '../../../../contract/api';
import type { DecodedItem, Decoder } from '../../../../contract/formats';
import type { TimelineItem, ToolResult } from './timeline-item';
import {
  noticeRow,
  orphanRow,
  resultRow,
  textRow,
  thinkingRow,
  toolRow,
  userRow,
} from './timeline-rows';

type ToolItem = Extract<TimelineItem, { kind: 'tool' }>;
type TextItem = Extract<TimelineItem, { kind: 'text' }>;
type Item<K extends DecodedItem['kind']> = Extract<DecodedItem, { kind: K }>;

/** What the mapping of decoded lines shares with the rest of the timeline of one window. */
export interface CodexTimelineState {
  items: TimelineItem[];
  tools: Map<string, ToolItem>;
  /** Agent messages by item id: deltas grow them, their final text replaces them. */
  messages: Map<string, TextItem>;
}

/**
 * Each event is decoded once, as event-line.ts reads Claude's: a window is rebuilt at every scroll
 * step. Kept per decoder: the same events read as another agent's would be another reading.
 */
const decoded = new WeakMap<Decoder, WeakMap<SessionEvent, DecodedItem[]>>();

function itemsOf(event: SessionEvent, decode: Decoder): DecodedItem[] {
  let readings = decoded.get(decode);
  if (!readings) decoded.set(decode, (readings = new WeakMap()));
  let items = readings.get(event);
  if (!items) {
    items = decode(event.data, event.source);
    readings.set(event, items);
  }
  return items;
}

/**
 * An agent's decoded lines (contract/formats) mapped to the same timeline as Claude's, for Codex
 * and any agent but Claude (whose lines event-line.ts reads with more detail): the person's prompts,
 * agent messages (streamed by deltas, closed by their final text or by the turn's end when an
 * interrupt left them open), reasoning, tool calls paired by id with their results (a rollout's
 * output whose call lies outside the window stands alone), the turn's end, Codex's errors.
 */
export function addDecodedEvent(
  event: SessionEvent,
  decode: Decoder,
  state: CodexTimelineState,
): void {
  for (const item of itemsOf(event, decode)) {
    switch (item.kind) {
      case 'user':
        if (item.text) state.items.push(userRow(event, 'u', item.text));
        break;
      case 'text':
        addText(event, item, state);
        break;
      case 'text_delta': {
        const message = state.messages.get(item.id);
        if (message) message.text += item.text;
        break;
      }
      case 'thinking':
        state.items.push(thinkingRow(event, 'k', item.text));
        break;
      case 'tool_call':
        callRow(event, item.id ?? `${event.seq}`, item, state);
        break;
      case 'tool_result':
        addResult(event, item, state);
        break;
      case 'turn_end':
        state.messages.clear();
        state.items.push(resultRow(event, 'r', turnEnd(item)));
        break;
      case 'error':
        state.items.push(
          noticeRow(event, 'e', item.text ?? $localize`Codex reported an error`, 'error'),
        );
        break;
    }
  }
}

function addText(event: SessionEvent, item: Item<'text'>, state: CodexTimelineState): void {
  const known = item.id === null ? undefined : state.messages.get(item.id);
  if (!known) {
    const fresh = textRow(event, 't', item.text, false);
    state.items.push(fresh);
    if (item.id !== null && !item.final) state.messages.set(item.id, fresh);
    return;
  }
  if (!item.final) return;
  const clipped = event.clipped === true;
  // A final text that came cut says less than the deltas streamed before it: keep those.
  if (clipped && known.text.length >= item.text.length) return;
  known.text = item.text;
  if (clipped) known.clippedSeq = event.seq;
}

function callRow(
  event: SessionEvent,
  id: string,
  call: { name: string; input: Record<string, unknown> },
  state: CodexTimelineState,
): ToolItem {
  const known = state.tools.get(id);
  if (known) return known;
  const fresh = toolRow(event, 'c', { id, name: call.name, input: call.input, sub: false });
  state.tools.set(id, fresh);
  state.items.push(fresh);
  return fresh;
}

function addResult(
  event: SessionEvent,
  item: Item<'tool_result'>,
  state: CodexTimelineState,
): void {
  const id = item.id ?? '';
  const detail = (item.detail ?? {}) as Record<string, unknown>;
  const command = detail['type'] === 'commandExecution';
  const status = typeof detail['status'] === 'string' ? detail['status'] : '';
  const result: ToolResult = {
    seq: event.seq,
    ms: event.received_at_ms,
    isError: item.isError,
    text:
      item.call && detail['type'] === 'fileChange'
        ? $localize`File change ${status}`.trim()
        : item.output,
    stdout: item.call && command ? item.output : null,
    stderr: null,
    interrupted: false,
    patch: null,
  };
  // An app-server completion says what was called; a rollout's output only names its call.
  const call = item.call ? callRow(event, id, item.call, state) : state.tools.get(id);
  if (call) call.result = result;
  else state.items.push(orphanRow(event, 'o', id, result));
}

function turnEnd(item: Item<'turn_end'>): Parameters<typeof resultRow>[2] {
  return {
    outcome: item.outcome,
    isError: item.outcome !== 'finished',
    durationMs: item.durationMs,
    costUsd: null,
    text:
      item.outcome === 'interrupted'
        ? 'Interrupted'
        : item.outcome === 'finished'
          ? null
          : (item.text ?? $localize`The turn failed`),
  };
}
