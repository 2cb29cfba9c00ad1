import { TimelineItem } from './timeline-item';
import { isLong, lineCount } from '../rows/tool-view';

/**
 * Elements the whole page may hold while a conversation is read. The window is budgeted in what
 * its rows render: a row is one element (a notice) or hundreds (a tool card showing a diff, a long
 * answer in Markdown), so a count of rows or events alone let some conversations pass this.
 */
export const PAGE_ELEMENTS = 1500;
/** The page around the timeline (shell, header, composer) until it has been counted. */
export const CHROME_GUESS = 450;
/**
 * Kept free for what grows between two fits of the window: a tool result joining its card, the
 * few live events appended before the window is fitted again, a row whose estimate was low.
 */
export const SLACK_ELEMENTS = 150;
/** What a row far from the view costs while it is a placeholder (near-rows.ts). */
export const PLACEHOLDER_ELEMENTS = 1;
/** Rows measured are remembered by key up to this many (older ones fall back to the estimate). */
const MEASURED_MAX = 2000;

/** Elements a row is expected to render, from its kind and content, before it was ever drawn. */
export function estimateElements(item: TimelineItem): number {
  switch (item.kind) {
    case 'user':
      return 6;
    case 'text':
      // Markdown: about an element per line (paragraph, list item, code line), inline marks more.
      return 6 + Math.ceil(1.5 * nonBlankLines(item.text));
    case 'thinking':
      return 5;
    case 'tool':
      return toolElements(item);
    case 'orphan-result':
      return 5;
    default:
      return 4;
  }
}

function toolElements(item: Extract<TimelineItem, { kind: 'tool' }>): number {
  let count = 10;
  if (item.result) count += 8;
  if (item.permission) count += 2;
  // An edit's diff shows a table row of seven elements per line unless it is long (collapsed).
  const patchLines = item.result?.patch?.reduce((sum, hunk) => sum + hunk.lines.length, 0) ?? 0;
  const diffLines = patchLines || editLines(item.input);
  if (diffLines > 0 && diffLines <= 12) count += 12 + 7 * diffLines;
  return count;
}

function editLines(input: Record<string, unknown>): number {
  const before = input['old_string'];
  const after = input['new_string'];
  if (typeof before !== 'string' || typeof after !== 'string') return 0;
  if (isLong(before) || isLong(after)) return 0;
  return lineCount(before) + lineCount(after);
}

function nonBlankLines(text: string): number {
  let count = 0;
  for (const line of text.split('\n')) if (line.trim()) count++;
  return count;
}

/**
 * What rows cost in elements: the count measured once a row was drawn, else its estimate scaled
 * by how far the estimates of its kind were from what was measured so far.
 */
export class RowCosts {
  private readonly measured = new Map<string, number>();
  private readonly scale = new Map<TimelineItem['kind'], number>();
  private chrome = CHROME_GUESS;

  of(item: TimelineItem): number {
    const known = this.measured.get(item.key);
    if (known !== undefined) return known;
    return Math.max(1, Math.ceil(estimateElements(item) * (this.scale.get(item.kind) ?? 1)));
  }

  /** Elements the timeline's rows may hold, given what the page around them was counted at. */
  budget(): number {
    return Math.max(200, PAGE_ELEMENTS - this.chrome - SLACK_ELEMENTS);
  }

  /**
   * Notes the rows as drawn (`elements` of each, keyed by row) and the page's total, so the
   * next fits of the window use them.
   */
  noteDrawn(rows: readonly TimelineItem[], elements: ReadonlyMap<string, number>, page: number) {
    let drawn = 0;
    // A row without a count is a placeholder (see near-rows.ts): one element, not the page's.
    let placeholders = 0;
    const ratios = new Map<TimelineItem['kind'], { measured: number; estimated: number }>();
    for (const row of rows) {
      const count = elements.get(row.key);
      if (count === undefined) {
        placeholders += PLACEHOLDER_ELEMENTS;
        continue;
      }
      drawn += count;
      this.remember(row.key, count);
      const ratio = ratios.get(row.kind) ?? { measured: 0, estimated: 0 };
      ratio.measured += count;
      ratio.estimated += estimateElements(row);
      ratios.set(row.kind, ratio);
    }
    for (const [kind, { measured, estimated }] of ratios)
      this.scale.set(kind, Math.max(0.5, measured / Math.max(1, estimated)));
    if (drawn > 0) this.chrome = Math.max(0, page - drawn - placeholders);
  }

  /** Another conversation: its rows' keys say nothing of this one's (the scales still hold). */
  forgetRows(): void {
    this.measured.clear();
  }

  private remember(key: string, count: number): void {
    this.measured.delete(key);
    this.measured.set(key, count);
    if (this.measured.size > MEASURED_MAX)
      this.measured.delete(this.measured.keys().next().value as string);
  }
}
