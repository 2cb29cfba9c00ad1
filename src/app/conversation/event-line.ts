import { PermissionMode, SessionEvent } from '../../../contract/api';
import { modeText } from '../shared/mode-label';
import { stateLabel } from '../shared/state-label';
import {
  AssistantLine,
  BashResult,
  InitLine,
  RelaisLine,
  ResultLine,
  TextBlock,
  ThinkingBlock,
  ToolResultBlock,
  ToolUseBlock,
  UserLine,
  isTranscriptPrompt,
  resultContentText,
  userText,
} from './agent-lines';
import { patchOf } from './diff-model';
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
 * Each schema below holds its line's `type` as a literal, so only the one that type names can
 * match: it alone is tried (a failed parse builds an error with its issues, for nothing).
 */
function readLine(event: SessionEvent): EventLine {
  const data = event.data;
  switch (typeOf(data)) {
    case 'assistant':
      return assistantLine(data);
    case 'user':
      return userLine(event);
    case 'system':
      return initLine(data);
    case 'result':
      return resultLine(data);
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

function assistantLine(data: unknown): EventLine {
  const assistant = AssistantLine.safeParse(data);
  if (!assistant.success) return OTHER;
  return {
    kind: 'assistant',
    sub: !!assistant.data.parent_tool_use_id,
    parts: assistant.data.message.content.flatMap(assistantPart),
  };
}

function userLine(event: SessionEvent): EventLine {
  const data = event.data;
  const user = UserLine.safeParse(data);
  if (!user.success) return OTHER;
  const content = user.data.message.content;
  let prompt: string | null = null;
  if (event.source === 'host' || isTranscriptPrompt(data)) {
    prompt = userText(content);
    if (prompt !== null || event.source === 'host') return { kind: 'user', prompt, results: [] };
  }
  if (typeof content === 'string') return { kind: 'user', prompt, results: [] };
  const results = content.flatMap((block, index): ToolResultPart[] => {
    if (block.type !== 'tool_result') return [];
    const parsed = ToolResultBlock.safeParse(block);
    if (!parsed.success) return [];
    const result = toolResult(event, parsed.data, user.data.tool_use_result);
    return [{ index, toolUseId: parsed.data.tool_use_id, result }];
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

function resultLine(data: unknown): EventLine {
  const result = ResultLine.safeParse(data);
  if (!result.success) return OTHER;
  return {
    kind: 'result',
    outcome: turnOutcome(result.data),
    durationMs: result.data.duration_ms ?? null,
    costUsd: result.data.total_cost_usd ?? null,
    text: result.data.result ?? null,
  };
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

function assistantPart(block: { type: string }, index: number): AssistantPart[] {
  const text = block.type === 'text' ? TextBlock.safeParse(block) : null;
  if (text?.success)
    return text.data.text.trim() ? [{ index, kind: 'text', text: text.data.text }] : [];
  const thinking = block.type === 'thinking' ? ThinkingBlock.safeParse(block) : null;
  if (thinking?.success) return [{ index, kind: 'thinking', text: thinking.data.thinking }];
  const use = block.type === 'tool_use' ? ToolUseBlock.safeParse(block) : null;
  if (use?.success)
    return [{ index, kind: 'tool', id: use.data.id, name: use.data.name, input: use.data.input }];
  return [];
}

const INTERRUPTED = new Set(['aborted_streaming', 'aborted_tools']);

function turnOutcome(line: ReturnType<typeof ResultLine.parse>): TurnOutcome {
  if (line.terminal_reason && INTERRUPTED.has(line.terminal_reason)) return 'interrupted';
  return line.is_error ? 'failed' : 'finished';
}

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

function toolResult(
  event: SessionEvent,
  block: ReturnType<typeof ToolResultBlock.parse>,
  raw: unknown,
): ToolResult {
  const bash = raw !== null && typeof raw === 'object' ? BashResult.safeParse(raw) : null;
  const details = bash?.success ? bash.data : null;
  return {
    seq: event.seq,
    ms: event.received_at_ms,
    isError: block.is_error ?? false,
    text: resultContentText(block.content),
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
