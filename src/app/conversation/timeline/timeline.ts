import { SessionEvent } from '../../../../contract/api';
import { decoderFor } from '../../../../contract/formats';
import { addDecodedEvent, type CodexTimelineState } from './codex-timeline';
import { type EventLine, eventLine } from './event-line';
import {
  initRow,
  noticeRow,
  orphanRow,
  resultRow,
  textRow,
  thinkingRow,
  toolRow,
  userRow,
} from './timeline-rows';
import type { TimelineItem } from './timeline-item';

export type { PermissionOutcome, TimelineItem, ToolResult, TurnOutcome } from './timeline-item';

type ToolItem = Extract<TimelineItem, { kind: 'tool' }>;

/** An exit with code 0, or by the signal Relais sent to stop the session, is no failure. */
function normalExit(line: Record<string, unknown>, stopping: boolean): boolean {
  const code = line['code'];
  if (code === 0) return true;
  return stopping && (code === null || code === undefined);
}

/**
 * Turns a window of events into what the conversation shows, read by the session's agent (Claude's
 * lines here and in event-line.ts, any other agent's through its decoder in codex-timeline.ts;
 * Relais' own lines either way): each tool call paired with its result by id (a result whose call
 * lies outside the window stands alone), permission outcomes attached to their call, repeated
 * identical contexts folded. The lines of an agent this build does not know show nothing.
 */
export function buildTimeline(events: readonly SessionEvent[], agent: unknown): TimelineItem[] {
  const state: ClaudeTimelineState = { items: [], tools: new Map(), lastInit: '', stopping: false };
  const codex: CodexTimelineState = { items: state.items, tools: state.tools, messages: new Map() };
  const decode = decoderFor(agent);
  for (const event of events) {
    if (event.source !== 'relais' && agent !== 'claude') addDecodedEvent(event, decode, codex);
    else addLine(event, eventLine(event), state);
  }
  // An agent message an interrupt left open and empty says nothing.
  return state.items.filter((item) => item.kind !== 'text' || item.text.trim() !== '');
}

/** What reading Claude's and Relais' lines in order carries from one line to the next. */
interface ClaudeTimelineState {
  items: TimelineItem[];
  tools: Map<string, ToolItem>;
  /** The last context's signature, so an identical one repeated is folded. */
  lastInit: string;
  /** A stop was asked for, so the agent's exit by signal is expected. */
  stopping: boolean;
}

function addLine(event: SessionEvent, line: EventLine, state: ClaudeTimelineState): void {
  const { items, tools } = state;
  switch (line.kind) {
    case 'assistant':
      addAssistantParts(event, line, state);
      break;
    case 'user':
      if (line.prompt !== null) items.push(userRow(event, 'u', line.prompt));
      for (const { index, toolUseId, result } of line.results) {
        const call = tools.get(toolUseId);
        if (call) call.result = result;
        else items.push(orphanRow(event, index, toolUseId, result));
      }
      break;
    case 'init':
      if (line.signature !== state.lastInit) items.push(initRow(event, 'i', line.init));
      state.lastInit = line.signature;
      break;
    case 'result':
      items.push(
        resultRow(event, 'r', {
          outcome: line.outcome,
          isError: line.outcome === 'failed',
          durationMs: line.durationMs,
          costUsd: line.costUsd,
          text: line.outcome === 'failed' ? line.text : null,
        }),
      );
      break;
    case 'decided': {
      const call = tools.get(line.toolUseId);
      if (call) call.permission = line.permission;
      break;
    }
    case 'gated': {
      const call = tools.get(line.toolUseId);
      if (call) call.gate = line.gate;
      break;
    }
    case 'relais':
      addRelaisLine(event, line, state);
      break;
  }
}

function addAssistantParts(
  event: SessionEvent,
  line: Extract<EventLine, { kind: 'assistant' }>,
  { items, tools }: ClaudeTimelineState,
): void {
  for (const part of line.parts) {
    if (part.kind === 'text') {
      items.push(textRow(event, part.index, part.text, line.sub));
      continue;
    }
    if (part.kind === 'thinking') {
      items.push(thinkingRow(event, part.index, part.text));
      continue;
    }
    const { id, name, input } = part;
    const item = toolRow(event, part.index, { id, name, input, sub: line.sub });
    tools.set(item.id, item);
    items.push(item);
  }
}

function addRelaisLine(
  event: SessionEvent,
  { line: relais, notice }: Extract<EventLine, { kind: 'relais' }>,
  state: ClaudeTimelineState,
): void {
  // A stop asked for (by a person or the deadline) makes the agent's exit by signal expected.
  if (relais['subtype'] === 'state' && relais['state'] === 'stopping') state.stopping = true;
  if (!notice) return;
  const failed = relais['subtype'] === 'agent_exit' && !normalExit(relais, state.stopping);
  state.items.push(noticeRow(event, 'n', notice, failed ? 'error' : 'info'));
}
