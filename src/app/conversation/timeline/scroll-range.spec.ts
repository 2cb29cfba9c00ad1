import { ScrollRange, SPACE_MAX_PX, spacerHeights } from './scroll-range';
import { seqOfPlace } from './scroll-space';

const turn = (seq: number) => ({ turn: 0, seq, text: '' });
const tool = (seq: number) => ({ seq, id: `t${seq}`, name: 'Bash', summary: '' });

/** 10,000 events; a turn every 100 seqs from 1, with two tool calls each at +10 and +20. */
function outlined(scannedTo = 10_000) {
  const turns = [];
  const tools = [];
  for (let seq = 1; seq <= scannedTo; seq += 100) {
    turns.push(turn(seq));
    if (seq + 10 <= scannedTo) tools.push(tool(seq + 10));
    if (seq + 20 <= scannedTo) tools.push(tool(seq + 20));
  }
  return new ScrollRange({ turns, tools, scannedTo }, 1, 10_000);
}

describe('the scroll range (where the window sits in the whole conversation)', () => {
  it('weighs a range by its turns and tool calls, and a little per event', () => {
    const range = outlined();
    // One turn (2) and its two tools (2), plus 100 events at 0.05.
    expect(range.weight(1, 101)).toBeCloseTo(4 + 5);
    // A stretch without a mark still takes some room, far less than one with a turn.
    expect(range.weight(30, 100)).toBeCloseTo(70 * 0.05);
    expect(range.weight(1, 10_001)).toBeCloseTo(100 * 9);
    expect(range.weight(500, 400)).toBe(0);
  });

  it('counts events the outline has not covered yet at the density it showed', () => {
    const half = outlined(5_000);
    const whole = outlined();
    expect(half.weight(5_001, 10_001)).toBeCloseTo(whole.weight(5_001, 10_001), -1);
    // Before any outline, every event counts one.
    const none = new ScrollRange({ turns: [], tools: [], scannedTo: 0 }, 1, 10_000);
    expect(none.weight(1, 1_001)).toBe(1_000);
  });

  it('places a fraction of a range at the seq that far through its weight', () => {
    const range = outlined();
    expect(range.seqAt(1, 10_001, 0)).toBe(1);
    expect(range.seqAt(1, 10_001, 1)).toBe(10_000);
    const middle = range.seqAt(1, 10_001, 0.5);
    expect(Math.abs(middle - 5_000)).toBeLessThan(100);
    // Weighted, not counted in events: the first half of a turn's weight is its prompt.
    expect(range.seqAt(1, 101, 0.2)).toBeLessThan(5);
  });

  it('sizes the spacers around a window at the rate its rows measured', () => {
    const range = outlined();
    // The last 1,000 events (ten turns, 9 each) drawn 9,000 px high: 100 px per weight.
    const { before, after, pxPerWeight } = spacerHeights(range, {
      first: 9_001,
      last: 10_000,
      heightPx: 9_000,
    });
    expect(pxPerWeight).toBeCloseTo(100);
    expect(before).toBe(90 * 9 * 100);
    expect(after).toBe(0);
    // The thumb's place: the window's share of the whole, a tenth, at the bottom.
    const whole = before + 9_000 + after;
    expect(before / whole).toBeCloseTo(0.9);
  });

  it('keeps a spacer within what a browser lays out, and draws none without a measure', () => {
    const range = new ScrollRange({ turns: [], tools: [], scannedTo: 0 }, 1, 10_000_000);
    const huge = spacerHeights(range, { first: 9_999_901, last: 10_000_000, heightPx: 100_000 });
    expect(huge.before).toBe(SPACE_MAX_PX);
    const unmeasured = spacerHeights(range, { first: 500, last: 600, heightPx: 0 });
    expect(unmeasured).toEqual({ before: 0, after: 0, pxPerWeight: 0 });
  });

  it('points a place in the room before or after the window at the seq it stands for', () => {
    const range = outlined();
    const window = { first: 4_001, last: 5_000 };
    const span = { first: 1, last: 10_000 };
    expect(seqOfPlace(range, { kind: 'before', fraction: 0 }, window, span)).toBe(1);
    const before = seqOfPlace(range, { kind: 'before', fraction: 0.5 }, window, span);
    expect(Math.abs(before - 2_000)).toBeLessThan(100);
    const after = seqOfPlace(range, { kind: 'after', fraction: 0.5 }, window, span);
    expect(Math.abs(after - 7_500)).toBeLessThan(100);
    expect(seqOfPlace(range, { kind: 'after', fraction: 1 }, window, span)).toBe(10_000);
    // A hostile fraction (a view past the room's end) stays inside the conversation.
    expect(seqOfPlace(range, { kind: 'before', fraction: -3 }, window, span)).toBe(1);
    expect(seqOfPlace(range, { kind: 'after', fraction: 7 }, window, span)).toBe(10_000);
  });
});
