/** Minimal Messages API client for tests: POST a body, parse the SSE, rebuild the content. */
export interface ParsedEvent {
  event: string;
  data: Record<string, unknown>;
}

export interface HttpReply {
  status: number;
  headers: Headers;
  text: string;
}

export type RebuiltBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown };

export async function postMessages(
  baseUrl: string,
  body: unknown,
  init: RequestInit = {},
): Promise<HttpReply> {
  const res = await fetch(`${baseUrl}/v1/messages?beta=true`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify(body),
    ...init,
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

export function parseSse(text: string): ParsedEvent[] {
  const events: ParsedEvent[] = [];
  for (const frame of text.split('\n\n')) {
    if (frame.trim() === '') continue;
    let event = '';
    const data: string[] = [];
    for (const line of frame.split('\n')) {
      if (line.startsWith('event: ')) event = line.slice('event: '.length);
      else if (line.startsWith('data: ')) data.push(line.slice('data: '.length));
    }
    events.push({ event, data: JSON.parse(data.join('\n')) as Record<string, unknown> });
  }
  return events;
}

/** Rebuilds the final content the way a streaming client does (deltas appended, tool JSON parsed at stop). */
export function rebuildContent(events: ParsedEvent[]): RebuiltBlock[] {
  const blocks: RebuiltBlock[] = [];
  const partialJson = new Map<number, string>();
  for (const { data } of events) {
    const index = typeof data['index'] === 'number' ? data['index'] : -1;
    if (data['type'] === 'content_block_start') {
      const start = data['content_block'] as Record<string, unknown>;
      if (start['type'] === 'tool_use') {
        blocks[index] = {
          type: 'tool_use',
          id: String(start['id']),
          name: String(start['name']),
          input: {},
        };
        partialJson.set(index, '');
      } else if (start['type'] === 'thinking') {
        blocks[index] = { type: 'thinking', thinking: '', signature: '' };
      } else {
        blocks[index] = { type: 'text', text: '' };
      }
    } else if (data['type'] === 'content_block_delta') {
      applyDelta(blocks[index], data['delta'] as Record<string, unknown>, index, partialJson);
    } else if (data['type'] === 'content_block_stop') {
      const block = blocks[index];
      if (block?.type === 'tool_use')
        block.input = JSON.parse(partialJson.get(index) || '{}') as unknown;
    }
  }
  return blocks;
}

function applyDelta(
  block: RebuiltBlock | undefined,
  delta: Record<string, unknown>,
  index: number,
  partialJson: Map<number, string>,
): void {
  if (!block) throw new Error(`delta for unknown block ${index}`);
  if (delta['type'] === 'text_delta' && block.type === 'text') block.text += String(delta['text']);
  else if (delta['type'] === 'thinking_delta' && block.type === 'thinking')
    block.thinking += String(delta['thinking']);
  else if (delta['type'] === 'signature_delta' && block.type === 'thinking')
    block.signature += String(delta['signature']);
  else if (delta['type'] === 'input_json_delta' && block.type === 'tool_use') {
    partialJson.set(index, (partialJson.get(index) ?? '') + String(delta['partial_json']));
  } else throw new Error(`delta ${String(delta['type'])} does not fit block ${block.type}`);
}
