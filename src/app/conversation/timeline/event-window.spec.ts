import { SessionEvent } from '../../../../contract/api';
import { mergeEvents, trimRows, trimWindow, windowBounds } from './event-window';

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

  describe('bounded by the rows it renders', () => {
    // Rows start at these seqs: events 1..20, two rows per even event, none for odd ones.
    const events = range(1, 20);
    const rows = events.flatMap((e) => (e.seq % 2 === 0 ? [e.seq, e.seq] : []));

    it('keeps everything under the bound', () => {
      expect(seqs(trimRows(events, rows, 20, { keep: 'end' }))).toEqual(seqs(events));
    });

    it('drops whole events from the side away from the reader', () => {
      // 20 rows, 6 kept: the rows of events 16, 18, 20 (15 renders nothing, so it goes too).
      expect(seqs(trimRows(events, rows, 6, { keep: 'end' }))).toEqual([16, 17, 18, 19, 20]);
      expect(seqs(trimRows(events, rows, 6, { keep: 'start' }))).toEqual([1, 2, 3, 4, 5, 6, 7]);
    });

    it('never cuts an event in two: its rows stay together or go together', () => {
      const kept = trimRows(events, rows, 5, { keep: 'end' });
      expect(seqs(kept)).toEqual([18, 19, 20]);
    });

    it('loading older: the new chunk gives way so rows already read stay on screen', () => {
      // The window began at 15; events 1..14 just arrived. 4 rows of 16.. stay, 2 of the chunk.
      const kept = trimRows(events, rows, 6, { keep: 'start', anchorSeq: 15, anchorRows: 4 });
      expect(seqs(kept)).toEqual([14, 15, 16, 17, 18, 19]);
    });

    it('with weights: keeps the rows whose elements fit the budget, not only their number', () => {
      // Every row renders 10 elements; 45 may be on screen: 4 rows (events 18 and 20), not 20.
      const weights = { costs: rows.map(() => 10), max: 45 };
      expect(seqs(trimRows(events, rows, 20, { keep: 'end' }, weights))).toEqual([18, 19, 20]);
      expect(seqs(trimRows(events, rows, 20, { keep: 'start' }, weights))).toEqual([1, 2, 3, 4, 5]);
    });

    it('with weights: one heavy row takes the room of many light ones', () => {
      // The rows of event 20 render 100 elements each; the rest 1. Only event 20 fits 200.
      const costs = rows.map((seq) => (seq === 20 ? 100 : 1));
      const kept = trimRows(events, rows, 20, { keep: 'end' }, { costs, max: 205 });
      expect(seqs(kept)).toEqual([16, 17, 18, 19, 20]);
      // A row heavier than the whole budget is still shown: the window never empties.
      const alone = trimRows(events, rows, 20, { keep: 'end' }, { costs, max: 50 });
      expect(seqs(alone)).toEqual([20]);
    });

    it('with weights and an anchor: the rows read stay, the new chunk gets what is left', () => {
      // The window began at 15; 1..14 arrived. The 4 rows of 16.. stay (40: up to half the
      // budget, so a chunk beside heavy rows still shows some), the chunk fills the rest.
      const weights = { costs: rows.map(() => 10), max: 80 };
      const kept = trimRows(
        events,
        rows,
        20,
        { keep: 'start', anchorSeq: 15, anchorRows: 4 },
        weights,
      );
      expect(seqs(kept)).toEqual([12, 13, 14, 15, 16, 17, 18, 19]);
      // Heavier than half the budget, the rows read give way to the chunk beyond that half.
      const heavy = { costs: rows.map(() => 10), max: 60 };
      const shared = trimRows(
        events,
        rows,
        20,
        { keep: 'start', anchorSeq: 15, anchorRows: 4 },
        heavy,
      );
      expect(seqs(shared)).toEqual([14, 15, 16, 17]);
    });

    it('loading newer: the same from the other side', () => {
      // The window ended at 6; 7..20 just arrived. The 4 rows up to 6 stay, then 2 new ones.
      const kept = trimRows(events, rows, 6, { keep: 'end', anchorSeq: 6, anchorRows: 4 });
      expect(seqs(kept)).toEqual([4, 5, 6, 7, 8, 9]);
    });
  });
});
