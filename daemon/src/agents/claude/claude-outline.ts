import { decoderFor, outlineMark } from '../../../../contract/formats/index.js';
import type { StoredEvent } from '../../events/event-store.js';
import { parsedLine } from '../../events/stored-event.js';
import type { OutlineMark } from '../../events/outline.js';

const decode = decoderFor('claude');

/**
 * Claude Code's lines for the outline, read by its decoder: the person's prompts (Relais' own
 * stream-json input, or an imported transcript's), the system/init context line, and the
 * assistant's tool calls.
 */
export function claudeOutline(event: StoredEvent): OutlineMark | null {
  return mayMark(event)
    ? outlineMark(decode(parsedLine(event.data), event.source), event.seq)
    : null;
}

/** Cheap text checks first: most lines are none of these, and parsing them all would cost. */
function mayMark({ source, data: text }: StoredEvent): boolean {
  if (source === 'host') return text.startsWith('{"type":"user"');
  if (source !== 'agent') return false;
  return (
    (text.includes('"sessionId"') && text.includes('"type":"user"')) ||
    (text.includes('"subtype":"init"') && text.includes('"type":"system"')) ||
    (text.includes('"tool_use"') && text.includes('"type":"assistant"'))
  );
}
