import type { SessionEvent } from '../../contract/api';
import {
  addCodexEvent,
  isCodexMessage,
  type CodexTimelineState,
} from '../app/conversation/codex-timeline';
import { addRolloutEvent, isRolloutLine } from '../app/conversation/rollout-timeline';
import type { TimelineItem } from '../app/conversation/timeline';
import { isTranscriptPrompt } from '../app/conversation/transcript-prompt';

/** One row of the first paint: what a person reads of the conversation's end before it is live. */
export interface PreviewLine {
  who: 'you' | 'agent' | 'tool';
  text: string;
}

/** Past this, a row's text is cut: the first paint shows the end of a conversation, not all of it. */
export const PREVIEW_TEXT_MAX = 4000;

type Json = Record<string, unknown>;
const obj = (value: unknown): Json | null =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null;
const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * The last `max` rows of a page of events as the conversation shows them, in plain text: the
 * person's prompts, the agent's replies and a line per tool call. Codex's messages and rollouts go
 * through the timeline's own mapping; Claude's lines are read here without the console's schemas
 * (zod would weigh more than the whole first paint). Anything unexpected adds nothing.
 */
export function previewLines(events: readonly SessionEvent[], max: number): PreviewLine[] {
  const codex: CodexTimelineState = { items: [], tools: new Map(), messages: new Map() };
  const rollout: TimelineItem[] = [];
  const rolloutTools = new Map();
  const lines: PreviewLine[] = [];
  const flush = (items: TimelineItem[]) => {
    for (const item of items.splice(0)) {
      const line = itemLine(item);
      if (line) lines.push(line);
    }
  };
  for (const event of events) {
    const data = event.data;
    if (isRolloutLine(data)) {
      addRolloutEvent(event, data, rollout, rolloutTools);
      flush(rollout);
    } else if (isCodexMessage(data)) {
      addCodexEvent(event, data, codex);
    } else {
      flush(codex.items);
      lines.push(...claudeLines(event));
    }
  }
  flush(codex.items);
  return lines.slice(-max).map((line) => ({ ...line, text: cut(line.text) }));
}

function itemLine(item: TimelineItem): PreviewLine | null {
  switch (item.kind) {
    case 'user':
      return { who: 'you', text: item.text };
    case 'text':
      return item.sub || !item.text.trim() ? null : { who: 'agent', text: item.text };
    case 'tool':
      return item.sub ? null : { who: 'tool', text: toolLine(item.name, item.input) };
    default:
      return null;
  }
}

/** Claude Code's stream and transcript lines: prompts, replies (not a sub-agent's), tool calls. */
function claudeLines(event: SessionEvent): PreviewLine[] {
  const line = obj(event.data);
  const message = obj(line?.['message']);
  if (!line || !message || line['parent_tool_use_id']) return [];
  const content = message['content'];
  if (line['type'] === 'user') {
    if (event.source !== 'host' && !isTranscriptPrompt(line)) return [];
    const text = typeof content === 'string' ? content : blockTexts(content);
    return text.trim() ? [{ who: 'you', text }] : [];
  }
  if (line['type'] !== 'assistant' || !Array.isArray(content)) return [];
  return content.flatMap((part): PreviewLine[] => {
    const block = obj(part);
    const text = str(block?.['text']);
    if (block?.['type'] === 'text' && text?.trim()) return [{ who: 'agent', text }];
    const name = str(block?.['name']);
    if (block?.['type'] === 'tool_use' && name)
      return [{ who: 'tool', text: toolLine(name, obj(block['input']) ?? {}) }];
    return [];
  });
}

function blockTexts(content: unknown): string {
  return (Array.isArray(content) ? content : [])
    .map((part) => (obj(part)?.['type'] === 'text' ? (str(obj(part)?.['text']) ?? '') : ''))
    .filter(Boolean)
    .join('\n');
}

/** A tool call in one line: its name and the one argument that says what it does. */
function toolLine(name: string, input: Json): string {
  const what = ['command', 'file_path', 'path', 'pattern', 'url', 'query', 'description']
    .map((field) => str(input[field]))
    .find((value) => value?.trim());
  const first = what?.split('\n')[0]?.slice(0, 160);
  return first ? `${name} · ${first}` : name;
}

function cut(text: string): string {
  return text.length > PREVIEW_TEXT_MAX ? `${text.slice(0, PREVIEW_TEXT_MAX)}…` : text;
}
