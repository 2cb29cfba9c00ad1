import { TimelineItem } from './timeline-item';
import { estimateElements } from './row-cost';
import { RowBox, RowHeights, rowsToDraw } from './near-rows';

/** Rows of `px` each from `top` (px from the view's top), costing `cost` elements. */
function column(count: number, px: number, top: number, cost = 10, drawn = false): RowBox[] {
  return Array.from({ length: count }, (_, i) => ({
    key: String(i),
    top: top + i * px,
    bottom: top + (i + 1) * px,
    cost,
    drawn,
  }));
}

const reply = (key: string, lines: number): TimelineItem => ({
  key,
  seq: Number(key),
  ms: 0,
  kind: 'text',
  text: Array.from({ length: lines }, (_, i) => `- item ${i}`).join('\n'),
  sub: false,
});

describe('rows drawn near the view', () => {
  it('draws the rows in view and within the margin, and leaves the far ones placeholders', () => {
    // 40 rows of 100 px, the view (800 px) over rows 20 to 27, a margin of 300 px.
    const rows = column(40, 100, -2000);
    const drawn = rowsToDraw(rows, 800, 399, 300);
    expect([...drawn].map(Number).sort((a, b) => a - b)).toEqual([
      17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30,
    ]);
  });

  it('draws every row while all of them fit the cap', () => {
    const rows = column(40, 100, -2000);
    expect(rowsToDraw(rows, 800, 400, 300).size).toBe(40);
    expect(rowsToDraw(rows, 800, 399, 300).size).toBe(14);
  });

  it('keeps rows already drawn up to twice the margin, so a row at the edge does not flip', () => {
    const rows = column(40, 100, -2000, 10, true);
    const drawn = rowsToDraw(rows, 800, 399, 300);
    expect(Math.min(...[...drawn].map(Number))).toBe(14);
    expect(Math.max(...[...drawn].map(Number))).toBe(33);
  });

  it('within the cap, draws the rows nearest the view first, and those in view whatever they cost', () => {
    const rows = column(40, 100, -2000, 50);
    // In view: rows 20-27, 400 elements, over a cap of 300: all drawn, none around them.
    expect(rowsToDraw(rows, 800, 300, 300).size).toBe(8);
    // A cap of 500: the two rows nearest the view, one above and one below.
    expect([...rowsToDraw(rows, 800, 500, 300)].map(Number).sort((a, b) => a - b)).toEqual([
      19, 20, 21, 22, 23, 24, 25, 26, 27, 28,
    ]);
  });

  it('keeps drawn a far row that holds the focus (a button in it)', () => {
    const rows = column(40, 100, -2000);
    rows[2]!.focused = true;
    const drawn = rowsToDraw(rows, 800, 399, 300);
    expect(drawn.has('2')).toBe(true);
    expect(drawn.has('3')).toBe(false);
  });

  it('gives a placeholder the height its row measured, else its estimate at its kind’s rate', () => {
    const heights = new RowHeights();
    const drawn = reply('1', 10);
    const unseen = reply('2', 20);
    const before = heights.of(unseen);
    expect(before).toBeGreaterThan(0);
    heights.note(drawn, 480);
    expect(heights.of(drawn)).toBe(480);
    // The kind measured 480 px for its estimate: the unseen row is scaled at that rate.
    const rate = 480 / estimateElements(drawn);
    expect(heights.of(unseen)).toBe(Math.round(estimateElements(unseen) * rate));
    expect(heights.of(unseen)).not.toBe(before);
  });
});
