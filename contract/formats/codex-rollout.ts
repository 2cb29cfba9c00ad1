import { arr, obj, safeJson, str, type DecodedItem, type Json } from './decoded.js';

const TOOL_CALLS = new Set(['function_call', 'custom_tool_call', 'local_shell_call']);
const TOOL_OUTPUTS = new Set(['function_call_output', 'custom_tool_call_output']);

/** A line of a Codex rollout file (an imported Codex conversation): `{timestamp, type, payload}`. */
export function isRolloutLine(data: Json): boolean {
  return typeof data['timestamp'] === 'string' && !!obj(data['payload']) && !('method' in data);
}

/**
 * A rollout's response items: the person's prompts (not Codex's own context), the replies, the
 * tool calls and their outputs. Its event lines repeat the same items and read as nothing.
 */
export function decodeRollout(line: Json): DecodedItem[] {
  if (line['type'] !== 'response_item') return [];
  const payload = obj(line['payload']) ?? {};
  const type = str(payload['type']) ?? '';
  if (type === 'message') {
    if (payload['role'] === 'user') {
      const text = texts(payload['content'], 'input_text');
      // Codex writes its own context as user messages too: instructions and environment.
      const said = text && !text.startsWith('<') && !text.startsWith('# AGENTS.md');
      return said ? [{ kind: 'user', text, steer: false }] : [];
    }
    if (payload['role'] !== 'assistant') return [];
    const text = texts(payload['content'], 'output_text');
    return text ? [{ kind: 'text', text, sub: false, id: null, final: true }] : [];
  }
  if (TOOL_CALLS.has(type)) {
    const id = str(payload['call_id']) ?? str(payload['id']);
    const name = str(payload['name']) ?? type;
    return [{ kind: 'tool_call', id, name, input: callInput(payload), sub: false }];
  }
  if (!TOOL_OUTPUTS.has(type)) return [];
  const output = payload['output'];
  return [
    {
      kind: 'tool_result',
      id: str(payload['call_id']),
      output: typeof output === 'string' ? output : safeJson(output ?? ''),
      isError: false,
      sub: false,
      call: null,
      detail: output,
    },
  ];
}

function texts(content: unknown, kind: string): string {
  return arr(content)
    .map((part) => (obj(part)?.['type'] === kind ? (str(obj(part)?.['text']) ?? '') : ''))
    .join('\n')
    .trim();
}

/** A call's arguments: Codex writes them as a JSON string, or as plain text for a custom tool. */
function callInput(payload: Json): Json {
  const raw = payload['arguments'] ?? payload['input'];
  if (typeof raw !== 'string') return obj(raw) ?? {};
  try {
    return obj(JSON.parse(raw)) ?? { input: raw };
  } catch {
    return { input: raw };
  }
}
