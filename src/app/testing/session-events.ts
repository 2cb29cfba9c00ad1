import { SessionEvent } from '../../../contract/api';

/**
 * Makes a test's events one after the other: seq 1, 2, 3…, a second apart. `restart()` (in a
 * `beforeEach`) begins again at 1.
 */
export function eventMaker(): {
  ev: (data: unknown, source?: SessionEvent['source']) => SessionEvent;
  restart: () => void;
} {
  let seq = 0;
  return {
    ev: (data, source = 'agent') => {
      seq += 1;
      return {
        seq,
        received_at: new Date(1_000_000 + seq * 1000).toISOString(),
        received_at_ms: 1_000_000 + seq * 1000,
        source,
        data,
      };
    },
    restart: () => (seq = 0),
  };
}
