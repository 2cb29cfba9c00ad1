import type { StoredEvent } from '../../events/event-store.js';
import type { OutlineMark } from '../../events/outline.js';
import { codexMessage } from './codex-message.js';

type Json = Record<string, unknown>;
const obj = (value: unknown): Json =>
  (value && typeof value === 'object' && !Array.isArray(value) ? value : {}) as Json;
const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The app-server methods the outline reads: the person's turns, the tool items started. */
const OUTLINED = new Set(['turn/start', 'item/started']);
/** A rollout's items that are tool calls (an imported Codex conversation). */
const ROLLOUT_CALLS = new Set(['function_call', 'custom_tool_call', 'local_shell_call']);

/**
 * Codex's events for the outline, in both of the shapes a Codex session holds: Relais' JSON-RPC
 * with the app server (the person's turn/start, the tool items Codex starts), and the lines of a
 * rollout file read by the history import (the person's messages, not Codex's own context, and
 * the tool calls). Codex has no context line of Claude's kind.
 */
export function codexOutline(event: StoredEvent): OutlineMark | null {
  const line = codexMessage(event, OUTLINED);
  // Not a message the outline reads: a rollout line, if anything (never an app-server line).
  if (!line) return event.data.includes('"response_item"') ? rolloutMark(event) : null;
  if (event.source === 'host')
    return line.method === 'turn/start' ? { turn: inputText(line.params['input']) } : null;
  if (line.method !== 'item/started') return null;
  const tool = toolOf(obj(line.params['item']), event.seq);
  return tool ? { tools: [tool] } : null;
}

function rolloutMark(event: StoredEvent): OutlineMark | null {
  let line: Json;
  try {
    line = obj(JSON.parse(event.data));
  } catch {
    return null;
  }
  if (line['type'] !== 'response_item') return null;
  const payload = obj(line['payload']);
  const type = str(payload['type']) ?? '';
  if (type === 'message' && payload['role'] === 'user') {
    const said = partsText(payload['content'], 'input_text');
    // Codex writes its own context as user messages too: instructions and environment.
    return said && !said.startsWith('<') && !said.startsWith('# AGENTS.md') ? { turn: said } : null;
  }
  if (!ROLLOUT_CALLS.has(type)) return null;
  return {
    tools: [
      {
        // A call without an id still needs one of its own: its event's seq.
        id: str(payload['call_id']) ?? str(payload['id']) ?? String(event.seq),
        name: str(payload['name']) ?? type,
        input: callInput(payload['arguments'] ?? payload['input']),
      },
    ],
  };
}

/** An app-server item that is a tool call, named as the conversation shows it. */
function toolOf(item: Json, seq: number): { id: string; name: string; input: Json } | null {
  const id = str(item['id']) ?? String(seq);
  switch (item['type']) {
    case 'commandExecution':
      return { id, name: 'Bash', input: { command: str(item['command']) ?? '' } };
    case 'fileChange': {
      // One new file reads as a Write, as the conversation shows it; anything else as an Edit.
      const changes = (Array.isArray(item['changes']) ? item['changes'] : []).map(obj);
      const first = changes[0] ?? {};
      const added = changes.length === 1 && obj(first['kind'])['type'] === 'add';
      return { id, name: added ? 'Write' : 'Edit', input: { path: str(first['path']) ?? '' } };
    }
    case 'mcpToolCall':
      return {
        id,
        name: `mcp__${str(item['server']) ?? '?'}__${str(item['tool']) ?? '?'}`,
        input: obj(item['arguments']),
      };
    case 'dynamicToolCall':
    case 'webSearch':
    case 'imageView':
      return { id, name: String(item['type']), input: item };
    default:
      return null;
  }
}

function inputText(input: unknown): string {
  return (Array.isArray(input) ? input : [])
    .map((part) => str(obj(part)['text']))
    .filter((text): text is string => text !== null)
    .join('\n');
}

function partsText(content: unknown, kind: string): string {
  return (Array.isArray(content) ? content : [])
    .map((part) => (obj(part)['type'] === kind ? (str(obj(part)['text']) ?? '') : ''))
    .join('\n')
    .trim();
}

function callInput(raw: unknown): Json {
  if (typeof raw !== 'string') return obj(raw);
  try {
    return obj(JSON.parse(raw));
  } catch {
    return { command: raw };
  }
}
