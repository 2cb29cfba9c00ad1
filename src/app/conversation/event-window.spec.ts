import { SessionEvent } from '../../../contract/api';
import { mergeEvents, trimWindow, windowBounds } from './event-window';

const ev = (seq: number, data: unknown = { n: seq }): SessionEvent => ({
  seq,
  received_at: '2026-01-01T00:00:00.000Z',
  received_at_ms: seq,
  source: 'agent',
  data,
});
const seqs = (events: SessionEvent[]) => events.map((e) => e.seq);
const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => ev(from + i));

describe('event paging', () => {
  it('appends a later chunk and prepends an earlier one', () => {
    expect(seqs(mergeEvents(range(5, 7), range(8, 9)))).toEqual([5, 6, 7, 8, 9]);
    expect(seqs(mergeEvents(range(5, 7), range(1, 4)))).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('never duplicates overlapping events (a reconnect replaying seqs)', () => {
    const merged = mergeEvents(range(1, 5), [ev(4, 'again'), ev(5), ev(6)]);
    expect(seqs(merged)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(merged[3]?.data).toBe('again');
  });

  it('trims the side away from the reader', () => {
    expect(seqs(trimWindow(range(1, 10), 4, 'end'))).toEqual([7, 8, 9, 10]);
    expect(seqs(trimWindow(range(1, 10), 4, 'start'))).toEqual([1, 2, 3, 4]);
    expect(seqs(trimWindow(range(1, 3), 4, 'end'))).toEqual([1, 2, 3]);
  });

  it('knows whether earlier or later events exist', () => {
    expect(windowBounds(range(50, 60), 1, 100)).toEqual({ hasOlder: true, hasNewer: true });
    expect(windowBounds(range(1, 100), 1, 100)).toEqual({ hasOlder: false, hasNewer: false });
    expect(windowBounds([], null, 0)).toEqual({ hasOlder: false, hasNewer: false });
  });
});
