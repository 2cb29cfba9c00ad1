import {
  arr,
  finite,
  obj,
  other,
  safeJson,
  str,
  tally,
  type DecodedItem,
  type Json,
  type LineSource,
  type Tokens,
} from './decoded.js';

/**
 * Claude Code's lines: its stream-json (what Relais writes to it as `host`, what it answers as
 * `agent`) and the lines of its transcripts (an imported conversation, all `agent`). No zod: the
 * first paint reads these before the console's bundle is in.
 */
export function decodeClaude(line: unknown, source: LineSource): DecodedItem[] {
  const data = obj(line);
  if (!data) return other();
  const items = ((): DecodedItem[] => {
    switch (data['type']) {
      case 'assistant':
        return source === 'agent' ? assistantItems(data) : [];
      case 'user':
        return userItems(data, source);
      case 'system':
        return data['subtype'] === 'init' && source === 'agent' ? [{ kind: 'init' }] : [];
      case 'result':
        return source === 'agent' && isResult(data) ? [turnEnd(data)] : [];
      case 'rate_limit_event':
        return source === 'agent' ? quotaItems(obj(data['rate_limit_info'])) : [];
      default:
        return [];
    }
  })();
  return items.length ? items : other();
}

/** An assistant line's blocks, then its model call. A loop, not flatMap: every line of a live session comes here. */
function assistantItems(data: Json): DecodedItem[] {
  const message = obj(data['message']);
  const sub = !!data['parent_tool_use_id'];
  const items: DecodedItem[] = [];
  for (const part of arr(message?.['content'])) {
    const item = blockItem(obj(part), sub);
    if (item) items.push(item);
  }
  items.push(modelCall(data, message, sub));
  return items;
}

function blockItem(block: Json | null, sub: boolean): DecodedItem | null {
  switch (block?.['type']) {
    case 'text': {
      const text = str(block['text']);
      return text === null ? null : { kind: 'text', text, sub, id: null, final: true };
    }
    case 'thinking': {
      const text = str(block['thinking']);
      return text === null ? null : { kind: 'thinking', text, sub };
    }
    case 'tool_use': {
      const name = str(block['name']);
      if (name === null) return null;
      const input = obj(block['input']) ?? {};
      return { kind: 'tool_call', id: str(block['id']), name, input, sub };
    }
    default:
      return null;
  }
}

/** Claude writes a message with this model when the API was not reached; `error` names why. */
const SYNTHETIC = '<synthetic>';

function modelCall(data: Json, message: Json | null, sub: boolean): DecodedItem {
  const model = str(message?.['model']);
  const synthetic = model === SYNTHETIC;
  return {
    kind: 'model_call',
    id: synthetic ? null : str(message?.['id']),
    model: synthetic ? null : model,
    sub,
    error: synthetic ? (str(data['error']) ?? 'api_error') : null,
    tokens: synthetic ? null : claudeTokens(obj(message?.['usage'])),
  };
}

/**
 * A user line is a person's prompt when Relais wrote it (`host`), or when a transcript holds it
 * as the person's (see isTranscriptPrompt); otherwise it carries tool results back to the agent.
 */
function userItems(data: Json, source: LineSource): DecodedItem[] {
  const message = obj(data['message']);
  if (!message || (source !== 'host' && source !== 'agent')) return [];
  const content = message['content'];
  const sub = !!data['parent_tool_use_id'];
  if (source === 'host' || isTranscriptPrompt(data)) {
    const text = promptText(content);
    if (text !== null) return [{ kind: 'user', text, steer: false }];
    if (source === 'host') return [];
  }
  const results = arr(content).flatMap((part): DecodedItem[] => {
    const block = obj(part);
    if (block?.['type'] !== 'tool_result') return [];
    return [
      {
        kind: 'tool_result',
        id: str(block['tool_use_id']),
        output: resultText(block['content']),
        isError: block['is_error'] === true,
        sub,
        call: null,
        detail: data['tool_use_result'],
      },
    ];
  });
  return results.length ? [...permissions(data), ...results] : results;
}

/** The agent's own word on how each call of the results was let through (`tool_result_meta`). */
function permissions(data: Json): DecodedItem[] {
  return arr(data['tool_result_meta']).flatMap((entry): DecodedItem[] => {
    const meta = obj(entry);
    const id = str(meta?.['id']);
    const source = str(obj(meta?.['permission_decision'])?.['source']);
    return id !== null && source !== null ? [{ kind: 'tool_permission', id, source }] : [];
  });
}

/**
 * A person's prompt in an imported transcript: the agent wrote it there (camel-case `sessionId`,
 * unlike its stream), as a user line of text rather than tool results; its own notes are `isMeta`.
 */
export function isTranscriptPrompt(data: unknown): boolean {
  const line = obj(data);
  return (
    !!line &&
    line['type'] === 'user' &&
    typeof line['sessionId'] === 'string' &&
    line['isMeta'] !== true &&
    line['isSidechain'] !== true
  );
}

/** A prompt's text: the content itself, or its text blocks; null when it holds none. */
function promptText(content: unknown): string | null {
  if (typeof content === 'string') return content;
  const texts = arr(content).flatMap((part) => {
    const block = obj(part);
    const text = block?.['type'] === 'text' ? str(block['text']) : null;
    return text === null ? [] : [text];
  });
  return texts.length ? texts.join('\n') : null;
}

/** A tool_result's content as text: a string, or its parts (a non-text part by its type). */
function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  return arr(content)
    .flatMap((part) => {
      const block = obj(part);
      if (!block) return [];
      return [str(block['text']) ?? `[${str(block['type']) ?? '?'}]`];
    })
    .join('\n');
}

const INTERRUPTED = new Set(['aborted_streaming', 'aborted_tools']);
const RESULT_FIELDS: Record<string, string> = {
  is_error: 'boolean',
  duration_ms: 'number',
  total_cost_usd: 'number',
  result: 'string',
  terminal_reason: 'string',
};

/** A result line whose fields are of their types: one that lies about them says nothing. */
function isResult(data: Json): boolean {
  return Object.entries(RESULT_FIELDS).every(
    ([field, type]) => data[field] === undefined || typeof data[field] === type,
  );
}

function turnEnd(data: Json): DecodedItem {
  const reason = str(data['terminal_reason']);
  return {
    kind: 'turn_end',
    outcome:
      reason && INTERRUPTED.has(reason)
        ? 'interrupted'
        : data['is_error'] === true
          ? 'failed'
          : 'finished',
    isError: data['is_error'] === true,
    durationMs: finite(data['duration_ms']),
    costUsd: finite(data['total_cost_usd']),
    text: str(data['result']),
    tokens: claudeTokens(obj(data['usage'])),
    reason,
    category: str(data['subtype']),
    errors: Array.isArray(data['errors'])
      ? data['errors'].map((error: unknown) => str(error) ?? safeJson(error))
      : null,
  };
}

/**
 * Claude's usage: an assistant line's is its message's so far (its blocks' lines may repeat it, an
 * early one a streaming snapshot), a result's is the whole turn's (PROTOCOLS §1.4).
 */
function claudeTokens(usage: Json | null): Tokens | null {
  if (!usage) return null;
  return {
    input: tally(usage['input_tokens']),
    output: tally(usage['output_tokens']),
    cacheRead: tally(usage['cache_read_input_tokens']),
    cacheCreation: tally(usage['cache_creation_input_tokens']),
    cacheCreation1h: tally(obj(usage['cache_creation'])?.['ephemeral_1h_input_tokens']),
    reasoning: null,
  };
}

/**
 * A rate_limit_event (PROTOCOLS §4.3): utilization there is a FRACTION and resets are Unix
 * seconds. `unifiedWindows` gives every window; otherwise only the binding one is known.
 */
function quotaItems(info: Json | null): DecodedItem[] {
  if (!info) return [];
  const unified = obj(info['unifiedWindows']);
  const binding = str(info['rateLimitType']);
  const windows: [string, Json | null][] = unified
    ? Object.entries(unified).map(([window, value]) => [window, obj(value)])
    : binding
      ? [[binding, info]]
      : [];
  return windows.flatMap(([window, value]): DecodedItem[] => {
    const fraction = finite(value?.['utilization']);
    if (fraction === null) return [];
    const resets = finite(value?.['resetsAt']);
    const resetsAtMs = resets === null ? null : resets * 1000;
    return [{ kind: 'quota', window, percent: fraction * 100, resetsAtMs }];
  });
}
