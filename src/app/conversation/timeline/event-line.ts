import { PermissionMode, SessionEvent } from '../../../../contract/api';
import { decoderFor, type DecodedItem } from '../../../../contract/formats';
import { modeText } from '../../shared/mode-label';
import { stateLabel } from '../../shared/state-label';
import { BashResult, InitLine, RelaisLine } from './agent-lines';
import { patchOf } from '../rows/diff-model';
import type { GateVerdict } from './refusal';
import type { PermissionOutcome, ToolResult, TurnOutcome } from './timeline-item';

export type AssistantPart =
  | { index: number; kind: 'text'; text: string }
  | { index: number; kind: 'thinking'; text: string }
  | { index: number; kind: 'tool'; id: string; name: string; input: Record<string, unknown> };

export interface ToolResultPart {
  index: number;
  toolUseId: string;
  result: ToolResult;
}

/** What one Claude Code (or Relais) line says, before it is paired with the lines around it. */
export type EventLine =
  | { kind: 'other' }
  | { kind: 'assistant'; sub: boolean; parts: AssistantPart[] }
  | { kind: 'user'; prompt: string | null; results: ToolResultPart[] }
  | { kind: 'init'; init: InitLine; signature: string }
  | {
      kind: 'result';
      outcome: TurnOutcome;
      durationMs: number | null;
      costUsd: number | null;
      text: string | null;
    }
  | { kind: 'decided'; toolUseId: string; permission: PermissionOutcome }
  | { kind: 'gated'; toolUseId: string; gate: GateVerdict }
  | { kind: 'relais'; line: Record<string, unknown>; notice: string | null };

/**
 * Each event is read once. A window of the conversation is rebuilt at every scroll step, and
 * reading every line of it again through its schemas made most of the page's garbage (280 MB while
 * scrolling a 10,000-event conversation to its top). Events are never changed once received, so
 * the reading is kept for as long as the event object lives.
 */
const read = new WeakMap<SessionEvent, EventLine>();

export function eventLine(event: SessionEvent): EventLine {
  let line = read.get(event);
  if (!line) {
    line = readLine(event);
    read.set(event, line);
  }
  return line;
}

/**
 * A line is read only by the reader its `type` names: Claude's decoder for prompts, replies, tool
 * calls and results and the turn's end; a schema for the context line and Relais' lines (a parse
 * that fails builds an error with its issues, for nothing, so no other is tried).
 */
function readLine(event: SessionEvent): EventLine {
  const data = event.data;
  switch (typeOf(data)) {
    case 'assistant':
      return assistantLine(event);
    case 'user':
      return userLine(event);
    case 'system':
      return initLine(data);
    case 'result':
      return resultLine(event);
    case 'relais':
      return relaisLine(data);
    default:
      return OTHER;
  }
}

const OTHER: EventLine = { kind: 'other' };

function typeOf(value: unknown): unknown {
  return value !== null && typeof value === 'object'
    ? (value as { type?: unknown }).type
    : undefined;
}

const decodeClaude = decoderFor('claude');

/** An assistant line's parts, read by Claude's decoder (contract/formats); blank texts say nothing. */
function assistantLine(event: SessionEvent): EventLine {
  const data = event.data as { parent_tool_use_id?: unknown };
  const parts = decodeClaude(data, event.source).flatMap((item, index): AssistantPart[] => {
    if (item.kind === 'text')
      return item.text.trim() ? [{ index, kind: 'text', text: item.text }] : [];
    if (item.kind === 'thinking') return [{ index, kind: 'thinking', text: item.text }];
    if (item.kind === 'tool_call' && item.id !== null)
      return [{ index, kind: 'tool', id: item.id, name: item.name, input: item.input }];
    return [];
  });
  return { kind: 'assistant', sub: !!data.parent_tool_use_id, parts };
}

/** A user line: the person's prompt (a host line, a transcript's), or tool results to pair. */
function userLine(event: SessionEvent): EventLine {
  let prompt: string | null = null;
  const results: ToolResultPart[] = [];
  decodeClaude(event.data, event.source).forEach((item, index) => {
    if (item.kind === 'user') prompt = item.text;
    else if (item.kind === 'tool_result' && item.id !== null)
      results.push({ index, toolUseId: item.id, result: toolResult(event, item) });
  });
  return { kind: 'user', prompt, results };
}

function initLine(data: unknown): EventLine {
  const init = InitLine.safeParse(data);
  if (!init.success) return OTHER;
  const signature = JSON.stringify([
    init.data.model,
    init.data.cwd,
    init.data.permissionMode,
    init.data.tools?.length,
    init.data.mcp_servers,
  ]);
  return { kind: 'init', init: init.data, signature };
}

/** The turn's end, read by Claude's decoder. */
function resultLine(event: SessionEvent): EventLine {
  const [end] = decodeClaude(event.data, event.source);
  if (end?.kind !== 'turn_end') return OTHER;
  const { outcome, durationMs, costUsd, text } = end;
  return { kind: 'result', outcome, durationMs, costUsd, text };
}

/** A daemon line: a permission outcome for a call, or a notice (or nothing to show). */
function relaisLine(data: unknown): EventLine {
  const relais = RelaisLine.safeParse(data);
  if (!relais.success) return OTHER;
  const line = relais.data as Record<string, unknown>;
  const toolUseId = str(line['tool_use_id']) ?? '';
  if (line['subtype'] === 'permission_decided')
    return {
      kind: 'decided',
      toolUseId,
      permission: {
        decision: str(line['decision']) ?? '?',
        decidedBy: str(line['decided_by']),
        scope: str(line['scope']),
        message: str(line['message']),
      },
    };
  if (line['subtype'] === 'permission_auto')
    return {
      kind: 'gated',
      toolUseId,
      gate: {
        decision: str(line['decision']) ?? '?',
        step: str(line['step']),
        rule: str(line['rule']),
        reason: str(line['reason']),
        decidedBy: str(line['decided_by']),
      },
    };
  return { kind: 'relais', line, notice: relaisNotice(line) };
}

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

function toolResult(
  event: SessionEvent,
  item: Extract<DecodedItem, { kind: 'tool_result' }>,
): ToolResult {
  const raw = item.detail;
  const bash = raw !== null && typeof raw === 'object' ? BashResult.safeParse(raw) : null;
  const details = bash?.success ? bash.data : null;
  return {
    seq: event.seq,
    ms: event.received_at_ms,
    isError: item.isError,
    text: item.output,
    stdout: details?.stdout ?? null,
    stderr: details?.stderr ?? null,
    interrupted: details?.interrupted ?? false,
    patch: patchOf(raw),
  };
}

function sessionMode(value: unknown): string {
  const mode = PermissionMode.safeParse(value);
  return mode.success ? modeText(mode.data) : 'mode ?';
}

function relaisNotice(data: Record<string, unknown>): string | null {
  switch (data['subtype']) {
    case 'session_created':
      return $localize`Session created (${sessionMode(data['permission_mode'])}, model ${str(data['model']) ?? '?'})`;
    case 'agent_exit':
      return $localize`Agent process exited${data['code'] !== undefined ? ` (code ${String(data['code'])})` : ''}`;
    case 'state':
      return data['state'] === 'ended' || data['state'] === 'stopping'
        ? $localize`Session ${stateLabel(data['state'])}:state:`
        : null;
    default:
      return null;
  }
}
