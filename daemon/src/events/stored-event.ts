import type { EventSource } from '../../../contract/api.js';

/** One stored line of a session: what the agent printed, or what Relais wrote to it. */
export interface StoredEvent {
  session_id: string;
  seq: number;
  received_at_ms: number;
  source: EventSource;
  /** The line as JSON text: verbatim for the agent's own lines, unless clipped. */
  data: string;
  /** Some text of the line was cut at the reader's `clip` (see clipEvent). */
  clipped?: true;
}

/** A stored line read as JSON; null for one that is not (a line of text: it holds no item). */
export function parsedLine(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return null;
  }
}
