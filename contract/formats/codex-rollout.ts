import { arr, obj, safeJson, str, tally, type DecodedItem, type Json } from './decoded.js';

const TOOL_CALLS = new Set([
  'function_call',
  'custom_tool_call',
  'local_shell_call',
  'web_search_call',
]);
const TOOL_OUTPUTS = new Set(['function_call_output', 'custom_tool_call_output']);

/** A line of a Codex rollout file (an imported Codex conversation): `{timestamp, type, payload}`. */
export function isRolloutLine(data: Json): boolean {
  return typeof data['timestamp'] === 'string' && !!obj(data['payload']) && !('method' in data);
}

/**
 * A rollout's response items (the person's prompts, not Codex's own context; the replies, the
 * tool calls and their outputs), the model of each turn's context and each model call's tokens.
 * Its other event lines repeat the same items and read as nothing. A newer Codex reports a call's
 * tokens twice, per response (`token_usage_record`) and as a running count (`token_count`): a
 * reader counts one of the two.
 */
export function decodeRollout(line: Json): DecodedItem[] {
  const payload = obj(line['payload']) ?? {};
  switch (line['type']) {
    case 'response_item':
      return responseItems(payload);
    case 'turn_context': {
      const model = str(payload['model']);
      return model ? [{ kind: 'model', model }] : [];
    }
    case 'token_usage_record':
      return [modelCall(str(payload['response_id']), obj(payload['usage']))];
    case 'event_msg': {
      const info = payload['type'] === 'token_count' ? obj(payload['info']) : null;
      return info ? [modelCall(null, obj(info['last_token_usage']))] : [];
    }
    default:
      return [];
  }
}

function responseItems(payload: Json): DecodedItem[] {
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

/**
 * One model call's usage in a rollout. Codex counts cached input inside its input, so the cached
 * part is taken out, never more than the input holds; the other counts are as given.
 */
function modelCall(id: string | null, usage: Json | null): DecodedItem {
  const input = Math.max(0, tally(usage?.['input_tokens']));
  const cached = Math.min(Math.max(0, tally(usage?.['cached_input_tokens'])), input);
  return {
    kind: 'model_call',
    id,
    model: null,
    sub: false,
    error: null,
    tokens: {
      input: input - cached,
      output: tally(usage?.['output_tokens']),
      cacheRead: cached,
      cacheCreation: tally(usage?.['cache_write_input_tokens']),
      cacheCreation1h: 0,
      reasoning: tally(usage?.['reasoning_output_tokens']),
    },
  };
}

function texts(content: unknown, kind: string): string {
  return arr(content)
    .map((part) => (obj(part)?.['type'] === kind ? (str(obj(part)?.['text']) ?? '') : ''))
    .join('\n')
    .trim();
}

/**
 * A call's arguments: Codex writes them as a JSON string, or as plain text for a custom tool; a
 * web search's are its action (the query).
 */
function callInput(payload: Json): Json {
  if (payload['type'] === 'web_search_call') return obj(payload['action']) ?? {};
  const raw = payload['arguments'] ?? payload['input'];
  if (typeof raw !== 'string') return obj(raw) ?? {};
  try {
    return obj(JSON.parse(raw)) ?? { input: raw };
  } catch {
    return { input: raw };
  }
}
