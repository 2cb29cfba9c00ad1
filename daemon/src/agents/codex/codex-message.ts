import type { StoredEvent } from '../../events/event-store.js';

type Json = Record<string, unknown>;
const obj = (value: unknown): Json =>
  (value && typeof value === 'object' && !Array.isArray(value) ? value : {}) as Json;

const METHOD_AT_START = /^\{\s*"method"\s*:\s*"([a-zA-Z/]+)"/;

/**
 * A JSON-RPC line of Codex's (or Relais' to it) with its method; null for any other line, and for
 * one whose method is not among `methods` when given (read off the line's start, not parsed: most
 * lines of a session are deltas that the caller does not want).
 */
export function codexMessage(
  event: StoredEvent,
  methods?: ReadonlySet<string>,
): { method: string; params: Json } | null {
  const method = METHOD_AT_START.exec(event.data)?.[1];
  if (!method || (methods && !methods.has(method))) return null;
  try {
    const line = JSON.parse(event.data) as Json;
    return { method, params: obj(line['params']) };
  } catch {
    return null;
  }
}
