import { PermissionMode, SessionEvent } from '../../../contract/api';
import { modeLabel } from '../shared/mode-label';
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
import { addCodexEvent, isCodexMessage, type CodexTimelineState } from './codex-timeline';
import { Hunk, patchOf } from './diff-model';
import { GateVerdict } from './refusal';
import { addRolloutEvent, isRolloutLine } from './rollout-timeline';

export interface ToolResult {
  seq: number;
  ms: number;
  isError: boolean;
  text: string;
  stdout: string | null;
  stderr: string | null;
  interrupted: boolean;
  /** The structured patch of an Edit/MultiEdit/Write result (real file line numbers). */
  patch: Hunk[] | null;
}

export interface PermissionOutcome {
  decision: string;
  decidedBy: string | null;
  scope: string | null;
  message: string | null;
}

interface Base {
  key: string;
  seq: number;
  ms: number;
}

export type TimelineItem =
  | (Base & { kind: 'user'; text: string })
  | (Base & { kind: 'text'; text: string; sub: boolean })
  | (Base & { kind: 'thinking'; text: string })
  | (Base & {
      kind: 'tool';
      id: string;
      name: string;
      input: Record<string, unknown>;
      result: ToolResult | null;
      permission: PermissionOutcome | null;
      /** What the permission gate decided without asking anyone (rule, mode, path). */
      gate: GateVerdict | null;
      sub: boolean;
    })
  | (Base & { kind: 'orphan-result'; toolUseId: string; result: ToolResult })
  | (Base & { kind: 'init'; init: InitLine })
  | (Base & {
      kind: 'result';
      outcome: TurnOutcome;
      isError: boolean;
      durationMs: number | null;
      costUsd: number | null;
      text: string | null;
    })
  | (Base & { kind: 'notice'; text: string; tone: 'info' | 'error' });

export type TurnOutcome = 'finished' | 'failed' | 'interrupted';

type ToolItem = Extract<TimelineItem, { kind: 'tool' }>;

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
  const bash = BashResult.safeParse(raw);
  const details = bash.success ? bash.data : null;
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
  return mode.success ? `${modeLabel(mode.data)} mode` : 'mode ?';
}

function relaisNotice(event: SessionEvent, data: Record<string, unknown>): string | null {
  switch (data['subtype']) {
    case 'session_created':
      return `Session created (${sessionMode(data['permission_mode'])}, model ${str(data['model']) ?? '?'})`;
    case 'agent_exit':
      return `Agent process exited${data['code'] !== undefined ? ` (code ${String(data['code'])})` : ''}`;
    case 'state':
      return data['state'] === 'ended' || data['state'] === 'stopping'
        ? `Session ${String(data['state'])}`
        : null;
    default:
      return null;
  }
}

/** An exit with code 0, or by the signal Relais sent to stop the session, is no failure. */
function normalExit(line: Record<string, unknown>, stopping: boolean): boolean {
  const code = line['code'];
  if (code === 0) return true;
  return stopping && (code === null || code === undefined);
}

/**
 * Turns a window of events into what the conversation shows, for either agent (Claude's
 * stream-json lines, Codex's JSON-RPC messages): each tool call paired with its result by id (a
 * result whose call lies outside the window stands alone), permission outcomes attached to their
 * call, repeated identical contexts folded.
 */
export function buildTimeline(events: readonly SessionEvent[]): TimelineItem[] {
  const items: TimelineItem[] = [];
  const tools = new Map<string, ToolItem>();
  let lastInit = '';
  const codex: CodexTimelineState = { items, tools, messages: new Map() };
  // A stop asked for (by a person or the deadline) makes the agent's exit by signal expected.
  let stopping = false;
  for (const event of events) {
    const base = (suffix: string | number): Base => ({
      key: `${event.seq}:${suffix}`,
      seq: event.seq,
      ms: event.received_at_ms,
    });
    const data = event.data;
    if (isRolloutLine(data)) {
      addRolloutEvent(event, data, items, tools);
      continue;
    }
    if (isCodexMessage(data)) {
      addCodexEvent(event, data, codex);
      continue;
    }
    const assistant = AssistantLine.safeParse(data);
    if (assistant.success) {
      const sub = !!assistant.data.parent_tool_use_id;
      assistant.data.message.content.forEach((block, index) => {
        const text = TextBlock.safeParse(block);
        if (text.success && text.data.text.trim())
          items.push({ ...base(index), kind: 'text', text: text.data.text, sub });
        const thinking = ThinkingBlock.safeParse(block);
        if (thinking.success)
          items.push({ ...base(index), kind: 'thinking', text: thinking.data.thinking });
        const use = ToolUseBlock.safeParse(block);
        if (use.success) {
          const item: ToolItem = {
            ...base(index),
            kind: 'tool',
            id: use.data.id,
            name: use.data.name,
            input: use.data.input,
            result: null,
            permission: null,
            gate: null,
            sub,
          };
          tools.set(item.id, item);
          items.push(item);
        }
      });
      continue;
    }
    const user = UserLine.safeParse(data);
    if (user.success) {
      const content = user.data.message.content;
      if (event.source === 'host' || isTranscriptPrompt(data)) {
        const text = userText(content);
        if (text !== null) items.push({ ...base('u'), kind: 'user', text });
        if (text !== null || event.source === 'host') continue;
      }
      if (typeof content === 'string') continue;
      content.forEach((block, index) => {
        const parsed = ToolResultBlock.safeParse(block);
        if (!parsed.success) return;
        const result = toolResult(event, parsed.data, user.data.tool_use_result);
        const call = tools.get(parsed.data.tool_use_id);
        if (call) call.result = result;
        else
          items.push({
            ...base(index),
            kind: 'orphan-result',
            toolUseId: parsed.data.tool_use_id,
            result,
          });
      });
      continue;
    }
    const init = InitLine.safeParse(data);
    if (init.success) {
      const signature = JSON.stringify([
        init.data.model,
        init.data.cwd,
        init.data.permissionMode,
        init.data.tools?.length,
        init.data.mcp_servers,
      ]);
      if (signature !== lastInit) items.push({ ...base('i'), kind: 'init', init: init.data });
      lastInit = signature;
      continue;
    }
    const result = ResultLine.safeParse(data);
    if (result.success) {
      const outcome = turnOutcome(result.data);
      items.push({
        ...base('r'),
        kind: 'result',
        outcome,
        isError: outcome === 'failed',
        durationMs: result.data.duration_ms ?? null,
        costUsd: result.data.total_cost_usd ?? null,
        text: outcome === 'failed' ? (result.data.result ?? null) : null,
      });
      continue;
    }
    const relais = RelaisLine.safeParse(data);
    if (relais.success) {
      const line = relais.data as Record<string, unknown>;
      if (line['subtype'] === 'permission_decided') {
        const call = tools.get(str(line['tool_use_id']) ?? '');
        if (call) {
          call.permission = {
            decision: str(line['decision']) ?? '?',
            decidedBy: str(line['decided_by']),
            scope: str(line['scope']),
            message: str(line['message']),
          };
        }
        continue;
      }
      if (line['subtype'] === 'permission_auto') {
        const call = tools.get(str(line['tool_use_id']) ?? '');
        if (call) {
          call.gate = {
            decision: str(line['decision']) ?? '?',
            step: str(line['step']),
            rule: str(line['rule']),
            reason: str(line['reason']),
            decidedBy: str(line['decided_by']),
          };
        }
        continue;
      }
      if (line['subtype'] === 'state' && line['state'] === 'stopping') stopping = true;
      const notice = relaisNotice(event, line);
      if (notice)
        items.push({
          ...base('n'),
          kind: 'notice',
          text: notice,
          tone: line['subtype'] === 'agent_exit' && !normalExit(line, stopping) ? 'error' : 'info',
        });
    }
  }
  // An agent message an interrupt left open and empty says nothing.
  return items.filter((item) => item.kind !== 'text' || item.text.trim() !== '');
}
