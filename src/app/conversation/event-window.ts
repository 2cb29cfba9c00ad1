import { SessionEvent } from '../../../contract/api';

/** Merges two runs of events into one, sorted by seq, each seq once (the incoming copy wins). */
export function mergeEvents(
  existing: readonly SessionEvent[],
  incoming: readonly SessionEvent[],
): SessionEvent[] {
  if (incoming.length === 0) return [...existing];
  const last = existing[existing.length - 1];
  const firstIncoming = incoming[0]!;
  if (!last || firstIncoming.seq > last.seq) return [...existing, ...incoming];
  const bySeq = new Map<number, SessionEvent>();
  for (const event of existing) bySeq.set(event.seq, event);
  for (const event of incoming) bySeq.set(event.seq, event);
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}

/** Keeps at most `max` events, dropping from the side away from where the person looks. */
export function trimWindow(
  events: readonly SessionEvent[],
  max: number,
  keep: 'start' | 'end',
): SessionEvent[] {
  if (events.length <= max) return [...events];
  return keep === 'end' ? events.slice(events.length - max) : events.slice(0, max);
}

export interface WindowBounds {
  hasOlder: boolean;
  hasNewer: boolean;
}

/** Whether events exist before or after the window, given the conversation's first and last seq. */
export function windowBounds(
  events: readonly SessionEvent[],
  firstSeq: number | null,
  lastSeq: number,
): WindowBounds {
  const first = events[0];
  const last = events[events.length - 1];
  if (!first || !last) return { hasOlder: false, hasNewer: lastSeq > 0 && firstSeq !== null };
  return { hasOlder: firstSeq !== null && first.seq > firstSeq, hasNewer: last.seq < lastSeq };
}
