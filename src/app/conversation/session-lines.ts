import { Observable } from 'rxjs';
import { SessionStreamLine } from '../../../contract/api';
import { StreamMessage, ndjsonStream } from '../core/live-stream';
import { EVENT_CLIP } from './conversation-paging';

/**
 * A session's live lines after seq `after`, its events clipped: its state first, then its events,
 * resumed after the last seen on a reconnection.
 */
export function sessionLines(
  id: string,
  after: number,
  key: () => string | null,
): Observable<StreamMessage<SessionStreamLine>> {
  return ndjsonStream({
    url: (seen) =>
      `/api/sessions/${encodeURIComponent(id)}/stream?after=${seen ?? after}&clip=${EVENT_CLIP}`,
    key,
    // Held open for the page's life: not on one of the six connections its scripts come by
    // (api-connections.ts).
    fetchFn: (input, init) => fetch(input, { ...init, credentials: 'omit' }),
    startAfter: after,
    parse: (raw) => {
      const parsed = SessionStreamLine.safeParse(raw);
      return parsed.success ? parsed.data : null;
    },
    seqOf: (line) => (line.type === 'event' ? line.event.seq : null),
    // The daemon ends the stream of an ended session after its final state; an imported one
    // has no end (its transcript may still grow), so it is followed.
    isLast: (line) =>
      line.type === 'session' &&
      line.session.state === 'ended' &&
      line.session.origin !== 'imported',
  });
}
