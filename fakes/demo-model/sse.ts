import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

import type { ContentBlock, DemoMessage } from './message.js';

export interface SseEvent {
  type: string;
  data: Record<string, unknown>;
  /** Wait this long (before delayScale) before writing the event. */
  delayMs: number;
}

const CHUNK = 24;
const SLOW_CHUNKS = 8;

/** The full event sequence of PROTOCOLS §2.4 for one message. */
export function sseEvents(message: DemoMessage, streamDurationMs = 0): SseEvent[] {
  const { content, usage, stop_reason: stopReason, ...rest } = message;
  const events: SseEvent[] = [
    event('message_start', {
      message: {
        ...rest,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 1 },
      },
    }),
    event('ping', {}),
  ];
  const textParts = content.filter((block) => block.type === 'text').length;
  content.forEach((block, index) => {
    events.push(...blockEvents(block, index, streamDurationMs / Math.max(1, textParts)));
  });
  events.push(
    event('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage }),
    event('message_stop', {}),
  );
  return events;
}

function blockEvents(block: ContentBlock, index: number, textDurationMs: number): SseEvent[] {
  if (block.type === 'text') {
    const pieces =
      textDurationMs > 0 ? splitInto(block.text, SLOW_CHUNKS) : chunks(block.text, CHUNK);
    const delay = textDurationMs > 0 ? textDurationMs / pieces.length : 0;
    return [
      event('content_block_start', { index, content_block: { type: 'text', text: '' } }),
      ...pieces.map((text) =>
        event('content_block_delta', { index, delta: { type: 'text_delta', text } }, delay),
      ),
      event('content_block_stop', { index }),
    ];
  }
  if (block.type === 'thinking') {
    return [
      event('content_block_start', {
        index,
        content_block: { type: 'thinking', thinking: '', signature: '' },
      }),
      ...chunks(block.thinking, CHUNK).map((thinking) =>
        event('content_block_delta', { index, delta: { type: 'thinking_delta', thinking } }),
      ),
      event('content_block_delta', {
        index,
        delta: { type: 'signature_delta', signature: block.signature },
      }),
      event('content_block_stop', { index }),
    ];
  }
  const json = JSON.stringify(block.input);
  return [
    event('content_block_start', {
      index,
      content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
    }),
    event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: '' } }),
    ...chunks(json, CHUNK).map((partial_json) =>
      event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } }),
    ),
    event('content_block_stop', { index }),
  ];
}

/** Writes events one by one so each reaches the socket at once; stops if the client goes away. */
export async function writeSse(
  res: ServerResponse,
  events: SseEvent[],
  delayScale: number,
): Promise<void> {
  // A pending delay must not outlive the connection (it would keep the process alive).
  const gone = new AbortController();
  res.once('close', () => gone.abort());
  for (const item of events) {
    const wait = item.delayMs * delayScale;
    if (wait > 0 && !(await pause(wait, gone.signal))) return;
    if (res.destroyed || res.writableEnded) return;
    res.write(formatEvent(item));
  }
  res.end();
}

async function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch (error: unknown) {
    if (signal.aborted) return false;
    throw error;
  }
}

export function formatEvent(item: SseEvent): string {
  return `event: ${item.type}\ndata: ${JSON.stringify({ type: item.type, ...item.data })}\n\n`;
}

function event(type: string, data: Record<string, unknown>, delayMs = 0): SseEvent {
  return { type, data, delayMs };
}

// Split on code points so a chunk never ends inside a surrogate pair.
function chunks(text: string, size: number): string[] {
  const points = Array.from(text);
  if (points.length === 0) return [''];
  const out: string[] = [];
  for (let i = 0; i < points.length; i += size) out.push(points.slice(i, i + size).join(''));
  return out;
}

function splitInto(text: string, count: number): string[] {
  return chunks(text, Math.max(1, Math.ceil(Array.from(text).length / count)));
}
