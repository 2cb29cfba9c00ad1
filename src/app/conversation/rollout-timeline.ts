import { SessionEvent } from '../../../contract/api';
import type { TimelineItem, ToolResult } from './timeline-item';
import { orphanRow, textRow, toolRow, userRow } from './timeline-rows';

type Json = Record<string, unknown>;
type ToolItem = Extract<TimelineItem, { kind: 'tool' }>;

const obj = (value: unknown): Json | null =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null;
const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const TOOL_CALLS = new Set(['function_call', 'custom_tool_call', 'local_shell_call']);
const TOOL_OUTPUTS = new Set(['function_call_output', 'custom_tool_call_output']);

/** A line of a Codex rollout file (an imported Codex conversation): `{timestamp, type, payload}`. */
export function isRolloutLine(data: unknown): data is { type: string; payload: Json } {
  const line = obj(data);
  return (
    !!line && typeof line['timestamp'] === 'string' && !!obj(line['payload']) && !('method' in line)
  );
}

function texts(content: unknown, kind: string): string {
  return (Array.isArray(content) ? content : [])
    .map((part) => (obj(part)?.['type'] === kind ? (str(obj(part)?.['text']) ?? '') : ''))
    .join('\n')
    .trim();
}

function input(payload: Json): Record<string, unknown> {
  const raw = payload['arguments'] ?? payload['input'];
  if (typeof raw !== 'string') return obj(raw) ?? {};
  try {
    return obj(JSON.parse(raw)) ?? { input: raw };
  } catch {
    return { input: raw };
  }
}

/** A person's prompt in a user message; null for Codex's own context (instructions, environment). */
function promptOf(payload: Json): string | null {
  const text = texts(payload['content'], 'input_text');
  return text && !text.startsWith('<') && !text.startsWith('# AGENTS.md') ? text : null;
}

/**
 * What the conversation shows of a rollout's items: the person's prompts (not Codex's own
 * context), the replies, and each tool call with its output, paired by call id. Codex's event
 * lines repeat the same items and are left out.
 */
export function addRolloutEvent(
  event: SessionEvent,
  line: { type: string; payload: Json },
  items: TimelineItem[],
  tools: Map<string, ToolItem>,
): void {
  if (line.type !== 'response_item') return;
  const p = line.payload;
  const type = str(p['type']) ?? '';
  if (type === 'message') {
    if (p['role'] === 'user') {
      const text = promptOf(p);
      if (text) items.push(userRow(event, 'u', text));
    } else if (p['role'] === 'assistant') {
      const text = texts(p['content'], 'output_text');
      if (text) items.push(textRow(event, 't', text, false));
    }
    return;
  }
  if (TOOL_CALLS.has(type)) {
    const id = str(p['call_id']) ?? str(p['id']) ?? `${event.seq}`;
    const item = toolRow(event, 'c', {
      id,
      name: str(p['name']) ?? type,
      input: input(p),
      sub: false,
    });
    tools.set(id, item);
    items.push(item);
    return;
  }
  if (TOOL_OUTPUTS.has(type)) {
    const output = p['output'];
    const text = typeof output === 'string' ? output : JSON.stringify(output ?? '');
    const result: ToolResult = {
      seq: event.seq,
      ms: event.received_at_ms,
      isError: false,
      text,
      stdout: null,
      stderr: null,
      interrupted: false,
      patch: null,
    };
    const call = tools.get(str(p['call_id']) ?? '');
    if (call) call.result = result;
    else items.push(orphanRow(event, 'o', str(p['call_id']) ?? '', result));
  }
}
