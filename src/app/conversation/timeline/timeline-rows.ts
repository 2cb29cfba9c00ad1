import type { SessionEvent } from '../../../../contract/api';
import type { InitLine } from './agent-lines';
import type { TimelineItem, ToolResult, TurnOutcome } from './timeline-item';

/**
 * The rows of the timeline, each made by one object literal. They used to be spread from a shared
 * `{ key, seq, ms }`: an object spread and then given more fields keeps the first one's layout
 * and moves every added field to a side store that grows field by field, which made each row
 * about ten times its size (measured in node: 3.3 kB against 260 bytes), rebuilt at every scroll step.
 */
type Row<K extends TimelineItem['kind']> = Extract<TimelineItem, { kind: K }>;

/** A row's key: its event's seq and which of that event's rows it is. */
function rowKey(event: SessionEvent, part: string | number): string {
  return `${event.seq}:${part}`;
}

export function userRow(event: SessionEvent, part: string | number, text: string): Row<'user'> {
  return { key: rowKey(event, part), seq: event.seq, ms: event.received_at_ms, kind: 'user', text };
}

export function textRow(
  event: SessionEvent,
  part: string | number,
  text: string,
  sub: boolean,
): Row<'text'> {
  const key = rowKey(event, part);
  return { key, seq: event.seq, ms: event.received_at_ms, kind: 'text', text, sub };
}

export function thinkingRow(
  event: SessionEvent,
  part: string | number,
  text: string,
): Row<'thinking'> {
  const key = rowKey(event, part);
  return { key, seq: event.seq, ms: event.received_at_ms, kind: 'thinking', text };
}

/** A tool call, its result and permission still to be paired. */
export function toolRow(
  event: SessionEvent,
  part: string | number,
  call: { id: string; name: string; input: Record<string, unknown>; sub: boolean },
): Row<'tool'> {
  return {
    key: rowKey(event, part),
    seq: event.seq,
    ms: event.received_at_ms,
    kind: 'tool',
    id: call.id,
    name: call.name,
    input: call.input,
    result: null,
    permission: null,
    gate: null,
    sub: call.sub,
  };
}

export function orphanRow(
  event: SessionEvent,
  part: string | number,
  toolUseId: string,
  result: ToolResult,
): Row<'orphan-result'> {
  const key = rowKey(event, part);
  return {
    key,
    seq: event.seq,
    ms: event.received_at_ms,
    kind: 'orphan-result',
    toolUseId,
    result,
  };
}

export function initRow(event: SessionEvent, part: string, init: InitLine): Row<'init'> {
  return { key: rowKey(event, part), seq: event.seq, ms: event.received_at_ms, kind: 'init', init };
}

/** The end of a turn. */
export function resultRow(
  event: SessionEvent,
  part: string,
  end: {
    outcome: TurnOutcome;
    isError: boolean;
    durationMs: number | null;
    costUsd: number | null;
    text: string | null;
  },
): Row<'result'> {
  return {
    key: rowKey(event, part),
    seq: event.seq,
    ms: event.received_at_ms,
    kind: 'result',
    outcome: end.outcome,
    isError: end.isError,
    durationMs: end.durationMs,
    costUsd: end.costUsd,
    text: end.text,
  };
}

export function noticeRow(
  event: SessionEvent,
  part: string,
  text: string,
  tone: 'info' | 'error',
): Row<'notice'> {
  const key = rowKey(event, part);
  return { key, seq: event.seq, ms: event.received_at_ms, kind: 'notice', text, tone };
}
