import { decoderFor, outlineMark } from '../../../../contract/formats/index.js';
import type { StoredEvent } from '../../events/event-store.js';
import { parsedLine } from '../../events/stored-event.js';
import type { OutlineMark } from '../../events/outline.js';

const decode = decoderFor('codex');

/** The app-server methods the outline reads: the person's turns, the tool items started. */
const OUTLINED = /^\{\s*"method"\s*:\s*"(?:turn\/start|item\/started)"/;

/**
 * Codex's events for the outline, read by its decoder, in both of the shapes a Codex session
 * holds: Relais' JSON-RPC with the app server (the person's turn/start, the tool items Codex
 * starts), and the lines of a rollout file read by the history import (the person's messages and
 * the tool calls). Codex has no context line of Claude's kind.
 */
export function codexOutline(event: StoredEvent): OutlineMark | null {
  // Read off the line's start, not parsed: most lines of a session are deltas the outline skips.
  if (!OUTLINED.test(event.data) && !event.data.includes('"response_item"')) return null;
  const line = parsedLine(event.data);
  return line === null ? null : outlineMark(decode(line, event.source), event.seq);
}
