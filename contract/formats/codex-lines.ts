import { decodeRollout, isRolloutLine } from './codex-rollout.js';
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
} from './decoded.js';

/**
 * Codex's lines, in both shapes a Codex session holds: the JSON-RPC messages of its app server
 * (Relais' turn/start and turn/steer as `host`, Codex's notifications as `agent`), and the lines
 * of a rollout file read by the history import.
 */
export function decodeCodex(line: unknown, source: LineSource): DecodedItem[] {
  const data = obj(line);
  if (!data) return other();
  const method = str(data['method']);
  const items =
    method !== null && data['type'] === undefined
      ? messageItems(method, obj(data['params']) ?? {}, source)
      : isRolloutLine(data) && source === 'agent'
        ? decodeRollout(data)
        : [];
  return items.length ? items : other();
}

function messageItems(method: string, params: Json, source: LineSource): DecodedItem[] {
  if (source === 'host') {
    if (method !== 'turn/start' && method !== 'turn/steer') return [];
    const text = inputText(params['input']);
    return [{ kind: 'user', text, steer: method === 'turn/steer' }];
  }
  if (source !== 'agent') return [];
  switch (method) {
    case 'item/agentMessage/delta': {
      const id = str(params['itemId']);
      const text = str(params['delta']);
      return id !== null && text !== null ? [{ kind: 'text_delta', id, text }] : [];
    }
    case 'item/started':
    case 'item/completed':
      return itemItems(obj(params['item']) ?? {}, method === 'item/completed');
    case 'turn/completed':
      return [turnEnd(obj(params['turn']) ?? {})];
    case 'thread/started': {
      const model = str(obj(params['thread'])?.['model']);
      return model === null ? [] : [{ kind: 'model', model }];
    }
    case 'thread/tokenUsage/updated':
      return [modelCall(obj(obj(params['tokenUsage'])?.['last']) ?? {})];
    case 'account/rateLimits/updated':
      return quotaItems(obj(params['rateLimits']) ?? {});
    case 'error':
      return params['willRetry'] === true
        ? []
        : [{ kind: 'error', text: str(obj(params['error'])?.['message']) }];
    default:
      return [];
  }
}

function itemItems(item: Json, completed: boolean): DecodedItem[] {
  const id = str(item['id']);
  if (item['type'] === 'agentMessage')
    return [{ kind: 'text', text: str(item['text']) ?? '', sub: false, id, final: completed }];
  if (item['type'] === 'reasoning') {
    if (!completed) return [];
    const parts = [...arr(item['summary']), ...arr(item['content'])]
      .map((part) => (typeof part === 'string' ? part : (str(obj(part)?.['text']) ?? '')))
      .filter((part) => part.trim());
    return parts.length ? [{ kind: 'thinking', text: parts.join('\n\n'), sub: false }] : [];
  }
  const call = toolOf(item);
  if (!call) return [];
  if (!completed) return [{ kind: 'tool_call', id, ...call, sub: false }];
  const output = resultText(item);
  return [
    {
      kind: 'tool_result',
      id,
      output,
      isError: item['status'] !== 'completed',
      sub: false,
      call,
      detail: item,
    },
  ];
}

const WRAPPED = /^(?:\/(?:usr\/)?bin\/)?(?:bash|sh|zsh) -l?c '((?:[^']|'\\''|'"'"')*)'$/;

/**
 * A command as the person would have typed it: Codex wraps each in a login shell's `-lc '<script>'`,
 * one single-quoted word. Anything else is returned unchanged. The daemon's rules read it too, so
 * that rules written for Claude's Bash (`git status`, …) match Codex's commands.
 */
export function unwrapShell(command: string): string {
  const match = WRAPPED.exec(command);
  return match ? match[1]!.replaceAll(`'\\''`, "'").replaceAll(`'"'"'`, "'") : command;
}

/** An app-server item that is a tool call, named as Claude's tools are (Bash, Write, Edit). */
function toolOf(item: Json): { name: string; input: Json } | null {
  switch (item['type']) {
    case 'commandExecution':
      return { name: 'Bash', input: { command: unwrapShell(str(item['command']) ?? '') } };
    case 'fileChange': {
      const changes = arr(item['changes']).map((change) => obj(change) ?? {});
      const first = changes[0] ?? {};
      const path = str(first['path']) ?? '';
      // One new file reads as a Write; anything else as an Edit.
      if (changes.length === 1 && obj(first['kind'])?.['type'] === 'add')
        return { name: 'Write', input: { file_path: path, content: str(first['diff']) ?? '' } };
      return {
        name: 'Edit',
        input: {
          file_path: path,
          unified_diff: changes.map((change) => str(change['diff']) ?? '').join('\n'),
          files: changes.map((change) => str(change['path'])),
        },
      };
    }
    case 'mcpToolCall':
      return {
        name: `mcp__${str(item['server']) ?? '?'}__${str(item['tool']) ?? '?'}`,
        input: obj(item['arguments']) ?? {},
      };
    case 'dynamicToolCall':
    case 'webSearch':
    case 'imageView':
      return { name: item['type'], input: item };
    default:
      return null;
  }
}

/** What a finished tool item printed; a file change says nothing but its status (see detail). */
function resultText(item: Json): string {
  if (item['type'] === 'commandExecution') return str(item['aggregatedOutput']) ?? '';
  if (item['type'] === 'fileChange') return '';
  const result = item['result'] ?? item['contentItems'] ?? item['error'];
  return typeof result === 'string' ? result : result === undefined ? '' : safeJson(result);
}

function inputText(input: unknown): string {
  return arr(input)
    .map((part) => str(obj(part)?.['text']))
    .filter((text): text is string => text !== null)
    .join('\n');
}

function turnEnd(turn: Json): DecodedItem {
  const status = str(turn['status']);
  return {
    kind: 'turn_end',
    outcome:
      status === 'interrupted' ? 'interrupted' : status === 'completed' ? 'finished' : 'failed',
    isError: status === 'failed',
    durationMs: finite(turn['durationMs']),
    costUsd: null,
    text: str(obj(turn['error'])?.['message']),
    tokens: null,
    reason: null,
    category: null,
    errors: null,
  };
}

/** One model call's tokens (`last`); Codex counts cached input inside its input. */
function modelCall(last: Json): DecodedItem {
  const cached = tally(last['cachedInputTokens']);
  return {
    kind: 'model_call',
    id: null,
    model: null,
    sub: false,
    error: null,
    tokens: {
      input: Math.max(0, tally(last['inputTokens']) - cached),
      output: tally(last['outputTokens']),
      cacheRead: cached,
      cacheCreation: tally(last['cacheWriteInputTokens']),
      cacheCreation1h: 0,
      reasoning: tally(last['reasoningOutputTokens']),
    },
  };
}

/** The windows Claude's quota names too, so that both agents line up on one page. */
const WINDOW_NAMES: Record<number, string> = { 300: 'five_hour', 10080: 'seven_day' };

/**
 * account/rateLimits/updated (PROTOCOLS §3.9): percents (rounded by Codex), resets in Unix
 * seconds. A null window is no reading: it never overwrites one.
 */
function quotaItems(limits: Json): DecodedItem[] {
  const limitId = str(limits['limitId']);
  return ['primary', 'secondary'].flatMap((which): DecodedItem[] => {
    const window = obj(limits[which]);
    const percent = finite(window?.['usedPercent']);
    if (!window || percent === null) return [];
    const minutes = tally(window['windowDurationMins']);
    const base = WINDOW_NAMES[minutes] ?? (minutes > 0 ? `${minutes}_minutes` : which);
    const resets = finite(window['resetsAt']);
    return [
      {
        kind: 'quota',
        window: limitId && limitId !== 'codex' ? `${limitId}_${base}` : base,
        percent,
        resetsAtMs: resets === null ? null : resets * 1000,
      },
    ];
  });
}
