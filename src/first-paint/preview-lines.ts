import type { SessionEvent } from '../../contract/api';
import { decoderFor, type DecodedItem } from '../../contract/formats';

/** One row of the first paint: what a person reads of the conversation's end before it is live. */
export interface PreviewLine {
  who: 'you' | 'agent' | 'tool';
  text: string;
}

/** Past this, a row's text is cut: the first paint shows the end of a conversation, not all of it. */
export const PREVIEW_TEXT_MAX = 4000;

/**
 * The last `max` rows of a page of events as the conversation shows them, in plain text: the
 * person's prompts, the agent's replies (not a sub-agent's) and a line per tool call. The lines are
 * read by the decoder of the session's agent (contract/formats, no zod: it would weigh more than
 * the whole first paint); anything unexpected, or an agent this build does not know, adds nothing.
 */
export function previewLines(
  events: readonly SessionEvent[],
  max: number,
  agent: unknown,
): PreviewLine[] {
  const decode = decoderFor(agent);
  const lines: PreviewLine[] = [];
  /** Streamed messages by id, open until the turn ends: deltas grow them, the final text wins. */
  const streamed = new Map<string, PreviewLine>();
  const called = new Set<string>();
  for (const event of events) {
    if (event.source === 'relais') continue;
    for (const item of decode(event.data, event.source)) {
      const line = rowOf(item, event.clipped === true, streamed, called);
      if (line) lines.push(line);
    }
  }
  return lines
    .filter((line) => line.text.trim())
    .slice(-max)
    .map((line) => ({ ...line, text: cut(line.text) }));
}

function rowOf(
  item: DecodedItem,
  clipped: boolean,
  streamed: Map<string, PreviewLine>,
  called: Set<string>,
): PreviewLine | null {
  switch (item.kind) {
    case 'user':
      return { who: 'you', text: item.text };
    case 'text': {
      if (item.sub) return null;
      const known = item.id === null ? undefined : streamed.get(item.id);
      if (!known) {
        const line: PreviewLine = { who: 'agent', text: item.text };
        if (item.id !== null && !item.final) streamed.set(item.id, line);
        return line;
      }
      // A final text that came cut says less than the deltas streamed before it: keep those.
      if (item.final && !(clipped && known.text.length >= item.text.length)) known.text = item.text;
      return null;
    }
    case 'text_delta': {
      const known = streamed.get(item.id);
      if (known) known.text += item.text;
      return null;
    }
    case 'tool_call':
      if (item.sub) return null;
      if (item.id !== null) called.add(item.id);
      return { who: 'tool', text: toolLine(item.name, item.input) };
    case 'tool_result':
      // A call whose start this page did not hold is shown by its completion.
      if (!item.call || item.sub || called.has(item.id ?? '')) return null;
      return { who: 'tool', text: toolLine(item.call.name, item.call.input) };
    case 'turn_end':
      streamed.clear();
      return null;
    default:
      return null;
  }
}

/** A tool call in one line: its name and the one argument that says what it does. */
function toolLine(name: string, input: Record<string, unknown>): string {
  const what = ['command', 'file_path', 'path', 'pattern', 'url', 'query', 'description']
    .map((field) => input[field])
    .find((value): value is string => typeof value === 'string' && !!value.trim());
  const first = what?.split('\n')[0]?.slice(0, 160);
  return first ? `${name} · ${first}` : name;
}

function cut(text: string): string {
  return text.length > PREVIEW_TEXT_MAX ? `${text.slice(0, PREVIEW_TEXT_MAX)}…` : text;
}
