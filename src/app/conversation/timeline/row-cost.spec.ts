import { TimelineItem } from './timeline-item';
import {
  CHROME_GUESS,
  PAGE_ELEMENTS,
  RowCosts,
  SLACK_ELEMENTS,
  estimateElements,
} from './row-cost';

const text = (key: string, lines: number): TimelineItem => ({
  key,
  seq: Number(key),
  ms: 0,
  kind: 'text',
  text: Array.from({ length: lines }, (_, i) => `line ${i}`).join('\n'),
  sub: false,
});
const edit = (key: string, lines: number): TimelineItem => ({
  key,
  seq: Number(key),
  ms: 0,
  kind: 'tool',
  id: `t${key}`,
  name: 'Edit',
  input: { file_path: 'a.ts', old_string: 'x', new_string: Array(lines).fill('y').join('\n') },
  result: null,
  permission: null,
  gate: null,
  sub: false,
});

describe('row costs in elements', () => {
  it('estimates more for a long answer than a short one, and for a shown diff by its lines', () => {
    expect(estimateElements(text('1', 30))).toBeGreaterThan(estimateElements(text('2', 1)) + 30);
    expect(estimateElements(edit('3', 8))).toBeGreaterThan(estimateElements(edit('4', 1)) + 40);
    // A long diff is collapsed behind its toggle: only the card is drawn.
    expect(estimateElements(edit('5', 40))).toBeLessThan(estimateElements(edit('6', 8)));
  });

  it('uses a row as drawn once measured, and scales the estimates of its kind by it', () => {
    const costs = new RowCosts();
    const drawn = text('1', 4);
    const unseen = text('2', 4);
    expect(costs.of(drawn)).toBe(estimateElements(drawn));
    costs.noteDrawn([drawn], new Map([['1', 3 * estimateElements(drawn)]]), 1000);
    expect(costs.of(drawn)).toBe(3 * estimateElements(drawn));
    expect(costs.of(unseen)).toBe(3 * estimateElements(unseen));
    costs.forgetRows();
    expect(costs.of(drawn)).toBe(3 * estimateElements(drawn));
  });

  it('leaves the timeline what the page around it does not hold', () => {
    const costs = new RowCosts();
    expect(costs.budget()).toBe(PAGE_ELEMENTS - CHROME_GUESS - SLACK_ELEMENTS);
    // 300 elements drawn in rows of a page of 900: the page around them holds 600.
    costs.noteDrawn([text('1', 2)], new Map([['1', 300]]), 900);
    expect(costs.budget()).toBe(PAGE_ELEMENTS - 600 - SLACK_ELEMENTS);
  });

  it('counts placeholders (rows measured without elements) as one element each, not as page', () => {
    const costs = new RowCosts();
    const rows = [text('1', 2), text('2', 2), text('3', 2), text('4', 2)];
    // Rows 2-4 are placeholders: a page of 903 elements is 300 drawn, 3 placeholders, 600 around.
    costs.noteDrawn(rows, new Map([['1', 300]]), 903);
    expect(costs.budget()).toBe(PAGE_ELEMENTS - 600 - SLACK_ELEMENTS);
  });
});
