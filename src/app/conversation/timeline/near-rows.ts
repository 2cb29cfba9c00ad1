import { TimelineItem } from './timeline-item';
import { estimateElements } from './row-cost';

/**
 * A row of the log as laid out: its key, where it is against the view (px from the view's top),
 * what it costs drawn (elements) and whether it is drawn now.
 */
export interface RowBox {
  key: string;
  top: number;
  bottom: number;
  cost: number;
  drawn: boolean;
  /** Holds the focus (a button inside it): drawn wherever it is, or the focus would be lost. */
  focused?: boolean;
}

/**
 * The rows to draw for a view `viewHeight` px tall: all of them if they cost `cap` or less, else
 * those in it, then those within `margin` of it,
 * and those already drawn within twice that (so a row at the edge does not flip at each step of a
 * scroll); nearest the view first while their cost fits `cap`. The rows in view are drawn whatever
 * they cost: a placeholder in view would be a blank under the reader's eyes.
 */
export function rowsToDraw(
  rows: readonly RowBox[],
  viewHeight: number,
  cap: number,
  margin: number,
): Set<string> {
  const drawn = new Set<string>();
  // Placeholders only where the rows would pass the cap: a short conversation is drawn whole.
  if (sumOf(rows) <= cap) {
    for (const row of rows) drawn.add(row.key);
    return drawn;
  }
  const near: { key: string; cost: number; distance: number }[] = [];
  let spent = 0;
  for (const row of rows) {
    if ((row.bottom > 0 && row.top < viewHeight) || row.focused) {
      drawn.add(row.key);
      spent += row.cost;
      continue;
    }
    const distance = Math.max(-row.bottom, row.top - viewHeight);
    if (distance < margin || (row.drawn && distance < 2 * margin)) {
      near.push({ key: row.key, cost: row.cost, distance });
    }
  }
  near.sort((a, b) => a.distance - b.distance);
  for (const row of near) {
    if (spent + row.cost > cap) break;
    drawn.add(row.key);
    spent += row.cost;
  }
  return drawn;
}

function sumOf(rows: readonly RowBox[]): number {
  let total = 0;
  for (const row of rows) total += row.cost;
  return total;
}

/** The least a placeholder is tall (px): a notice's line. */
const MIN_PX = 20;
/** Px a row is taken to show per element it is estimated at, before any of its kind was drawn. */
const PX_PER_ELEMENT = 8;
/** Rows' heights are remembered by key up to this many (older ones fall back to the estimate). */
const MEASURED_MAX = 4000;

/**
 * How tall a row is while it is a placeholder: what it measured when it was last drawn, else its
 * element estimate (row-cost.ts) at the px per element its kind measured so far.
 */
export class RowHeights {
  private readonly measured = new Map<string, number>();
  private readonly rates = new Map<TimelineItem['kind'], { px: number; elements: number }>();

  of(item: TimelineItem): number {
    const known = this.measured.get(item.key);
    if (known !== undefined) return known;
    const rate = this.rates.get(item.kind);
    const perElement = rate ? rate.px / Math.max(1, rate.elements) : PX_PER_ELEMENT;
    return Math.max(MIN_PX, Math.round(estimateElements(item) * perElement));
  }

  /** Notes a drawn row's height (px). */
  note(item: TimelineItem, px: number): void {
    if (px <= 0) return;
    const before = this.measured.get(item.key);
    if (before === px) return;
    this.measured.delete(item.key);
    this.measured.set(item.key, px);
    if (this.measured.size > MEASURED_MAX)
      this.measured.delete(this.measured.keys().next().value as string);
    if (before !== undefined) return;
    const rate = this.rates.get(item.kind) ?? { px: 0, elements: 0 };
    rate.px += px;
    rate.elements += estimateElements(item);
    this.rates.set(item.kind, rate);
  }
}
