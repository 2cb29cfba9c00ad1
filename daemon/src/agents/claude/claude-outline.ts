import type { StoredEvent } from '../../events/event-store.js';
import type { OutlineMark } from '../../events/outline.js';

interface UserLine {
  type?: string;
  isMeta?: boolean;
  isSidechain?: boolean;
  message?: { content?: { type: string; text?: string }[] | string };
}

interface AssistantLine {
  message?: {
    content?: { type: string; id?: string; name?: string; input?: Record<string, unknown> }[];
  };
}

/**
 * Claude Code's lines for the outline: the person's prompts (Relais' own stream-json input, or an
 * imported transcript's user lines that hold text), the system/init context line, and the
 * assistant's tool_use blocks.
 */
export function claudeOutline(event: StoredEvent): OutlineMark | null {
  const text = event.data;
  // Cheap text checks first: most lines are none of these, and parsing them all would cost.
  if (
    (event.source === 'host' && text.startsWith('{"type":"user"')) ||
    (event.source === 'agent' && text.includes('"sessionId"') && text.includes('"type":"user"'))
  ) {
    const line = parsed<UserLine>(text);
    if (!line) return null;
    // An imported transcript's prompts (camel-case sessionId): a person's text, not tool results.
    if (event.source === 'agent' && !isTranscriptPrompt(line)) return null;
    const content = line.message?.content;
    return {
      turn:
        typeof content === 'string' ? content : (content ?? []).map((b) => b.text ?? '').join(' '),
    };
  }
  if (event.source !== 'agent') return null;
  if (text.includes('"subtype":"init"') && text.includes('"type":"system"')) return { init: true };
  if (text.includes('"tool_use"') && text.includes('"type":"assistant"')) {
    const line = parsed<AssistantLine>(text);
    if (!line) return null;
    const tools = (line.message?.content ?? []).flatMap((block) =>
      block.type === 'tool_use' && block.id
        ? [{ id: block.id, name: block.name ?? 'unknown', input: block.input }]
        : [],
    );
    return tools.length ? { tools } : null;
  }
  return null;
}

/** A stored line read as JSON; null for one that is not (it then adds nothing to the outline). */
function parsed<T>(text: string): T | null {
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

function isTranscriptPrompt(line: UserLine): boolean {
  if (line.type !== 'user' || line.isMeta || line.isSidechain) return false;
  const content = line.message?.content;
  return typeof content === 'string' || (content ?? []).some((block) => block.type === 'text');
}
