import type { Session } from '../../../contract/api';

/**
 * The fresher of two copies of one session: an answer that arrives late (a list, the reply to
 * Stop while the live stream has already said "ended") must not undo a live change. An ended
 * session stays ended; otherwise the copy that has seen more events wins, the incoming one on a tie.
 */
export function fresherSession(current: Session | null | undefined, incoming: Session): Session {
  if (!current || current.id !== incoming.id) return incoming;
  if (current.state === 'ended' && incoming.state !== 'ended') return current;
  return incoming.last_seq >= current.last_seq || incoming.state === 'ended' ? incoming : current;
}
