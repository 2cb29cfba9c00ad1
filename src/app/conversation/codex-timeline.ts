import { SessionEvent } from '../../../contract/api';
import type { TimelineItem } from './timeline-item';
import { noticeRow, resultRow, textRow, thinkingRow, toolRow, userRow } from './timeline-rows';

type Json = Record<string, unknown>;
type ToolItem = Extract<TimelineItem, { kind: 'tool' }>;
type TextItem = Extract<TimelineItem, { kind: 'text' }>;

const obj = (value: unknown): Json =>
  (value && typeof value === 'object' && !Array.isArray(value) ? value : {}) as Json;
const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** What the Codex mapping shares with the rest of the timeline of one window. */
export interface CodexTimelineState {
  items: TimelineItem[];
  tools: Map<string, ToolItem>;
  /** Agent messages by item id: deltas grow them, item/completed sets the final text. */
  messages: Map<string, TextItem>;
}

/** A Codex JSON-RPC message (PROTOCOLS §3): `method` and/or `id`, never Claude's `type`. */
export function isCodexMessage(data: unknown): data is Json {
  const line = obj(data);
  return line['type'] === undefined && (typeof line['method'] === 'string' || 'id' in line);
}

const WRAPPED = /^(?:\/(?:usr\/)?bin\/)?(?:bash|sh|zsh) -l?c '((?:[^']|'\\''|'"'"')*)'$/;

function shownCommand(item: Json): string {
  const command = str(item['command']) ?? '';
  const match = WRAPPED.exec(command);
  return match ? match[1]!.replaceAll(`'\\''`, "'").replaceAll(`'"'"'`, "'") : command;
}

function userInputText(input: unknown): string {
  return (Array.isArray(input) ? input : [])
    .map((part) => str(obj(part)['text']))
    .filter((text): text is string => text !== null)
    .join('\n');
}

function toolOf(item: Json): { name: string; input: Json } | null {
  switch (item['type']) {
    case 'commandExecution':
      return { name: 'Bash', input: { command: shownCommand(item) } };
    case 'fileChange': {
      const changes = (Array.isArray(item['changes']) ? item['changes'] : []).map(obj);
      const first = changes[0] ?? {};
      const kind = str(obj(first['kind'])['type']);
      const path = str(first['path']) ?? '';
      if (changes.length === 1 && kind === 'add')
        return { name: 'Write', input: { file_path: path, content: str(first['diff']) ?? '' } };
      return {
        name: 'Edit',
        input: {
          file_path: path,
          unified_diff: changes.map((c) => str(c['diff']) ?? '').join('\n'),
          files: changes.map((c) => str(c['path'])),
        },
      };
    }
    case 'mcpToolCall':
      return {
        name: `mcp__${str(item['server']) ?? '?'}__${str(item['tool']) ?? '?'}`,
        input: obj(item['arguments']),
      };
    case 'dynamicToolCall':
    case 'webSearch':
    case 'imageView':
      return { name: String(item['type']), input: item };
    default:
      return null;
  }
}

function resultText(item: Json): string {
  if (item['type'] === 'commandExecution') return str(item['aggregatedOutput']) ?? '';
  if (item['type'] === 'fileChange')
    return $localize`File change ${str(item['status']) ?? ''}`.trim();
  const result = item['result'] ?? item['contentItems'] ?? item['error'];
  return typeof result === 'string' ? result : result === undefined ? '' : JSON.stringify(result);
}

/**
 * Codex's messages mapped to the same timeline as Claude's lines: the person's turn/start and
 * turn/steer, agent messages (streamed by deltas, closed by item/completed or by the turn's end
 * when an interrupt left them open), reasoning, tool items paired by id with their completion, and
 * the turn's end with its duration.
 */
export function addCodexEvent(event: SessionEvent, data: Json, state: CodexTimelineState): void {
  const method = str(data['method']);
  const params = obj(data['params']);
  if (event.source === 'host') {
    if (method === 'turn/start' || method === 'turn/steer') {
      const text = userInputText(params['input']);
      if (text) state.items.push(userRow(event, 'u', text));
    }
    return;
  }
  switch (method) {
    case 'item/agentMessage/delta': {
      const message = state.messages.get(str(params['itemId']) ?? '');
      if (message) message.text += str(params['delta']) ?? '';
      return;
    }
    case 'item/started':
    case 'item/completed':
      return itemEvent(method, obj(params['item']), event, state);
    case 'turn/completed': {
      const turn = obj(params['turn']);
      const status = str(turn['status']);
      state.messages.clear();
      state.items.push(
        resultRow(event, 'r', {
          outcome:
            status === 'interrupted'
              ? 'interrupted'
              : status === 'completed'
                ? 'finished'
                : 'failed',
          isError: status !== 'completed',
          durationMs: typeof turn['durationMs'] === 'number' ? turn['durationMs'] : null,
          costUsd: null,
          text:
            status === 'interrupted'
              ? 'Interrupted'
              : status === 'completed'
                ? null
                : (str(obj(turn['error'])['message']) ?? $localize`The turn failed`),
        }),
      );
      return;
    }
    case 'error': {
      if (params['willRetry'] === true) return;
      const message = str(obj(params['error'])['message']) ?? $localize`Codex reported an error`;
      state.items.push(noticeRow(event, 'e', message, 'error'));
      return;
    }
    default:
      return;
  }
}

function itemEvent(
  method: string,
  item: Json,
  event: SessionEvent,
  state: CodexTimelineState,
): void {
  const clipped = event.clipped === true;
  const id = str(item['id']) ?? '';
  const type = item['type'];
  if (type === 'agentMessage') {
    const known = state.messages.get(id);
    const text = str(item['text']) ?? '';
    if (known) {
      if (method !== 'item/completed') return;
      // A completion that came cut says less than the deltas streamed before it: keep those.
      if (clipped && known.text.length >= text.length) return;
      known.text = text;
      if (clipped) known.clippedSeq = event.seq;
      return;
    }
    const fresh = textRow(event, 't', text, false);
    state.items.push(fresh);
    if (method === 'item/started') state.messages.set(id, fresh);
    return;
  }
  if (type === 'reasoning' && method === 'item/completed') {
    const parts = [item['summary'], item['content']]
      .flatMap((part) => (Array.isArray(part) ? part : []))
      .map((part) => (typeof part === 'string' ? part : (str(obj(part)['text']) ?? '')))
      .filter((part) => part.trim());
    if (parts.length) state.items.push(thinkingRow(event, 'k', parts.join('\n\n')));
    return;
  }
  const tool = toolOf(item);
  if (!tool) return;
  const known = state.tools.get(id);
  if (!known) {
    const fresh = toolRow(event, 'c', { id, name: tool.name, input: tool.input, sub: false });
    state.tools.set(id, fresh);
    state.items.push(fresh);
  }
  if (method !== 'item/completed') return;
  const call = state.tools.get(id)!;
  const status = str(item['status']);
  const output = resultText(item);
  call.result = {
    seq: event.seq,
    ms: event.received_at_ms,
    isError: status !== 'completed',
    text: output,
    stdout: item['type'] === 'commandExecution' ? output : null,
    stderr: null,
    interrupted: false,
    patch: null,
  };
}
