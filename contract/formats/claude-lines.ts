import {
  arr,
  finite,
  obj,
  other,
  str,
  type DecodedItem,
  type Json,
  type LineSource,
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
      default:
        return [];
    }
  })();
  return items.length ? items : other();
}

function assistantItems(data: Json): DecodedItem[] {
  const message = obj(data['message']);
  const sub = !!data['parent_tool_use_id'];
  const items = arr(message?.['content']).flatMap((part): DecodedItem[] => {
    const block = obj(part);
    switch (block?.['type']) {
      case 'text': {
        const text = str(block['text']);
        return text === null ? [] : [{ kind: 'text', text, sub, id: null, final: true }];
      }
      case 'thinking': {
        const text = str(block['thinking']);
        return text === null ? [] : [{ kind: 'thinking', text, sub }];
      }
      case 'tool_use': {
        const name = str(block['name']);
        if (name === null) return [];
        const input = obj(block['input']) ?? {};
        return [{ kind: 'tool_call', id: str(block['id']), name, input, sub }];
      }
      default:
        return [];
    }
  });
  return items;
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
  return arr(content).flatMap((part): DecodedItem[] => {
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
    durationMs: finite(data['duration_ms']),
    costUsd: finite(data['total_cost_usd']),
    text: str(data['result']),
  };
}
