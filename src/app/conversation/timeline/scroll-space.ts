import { ScrollRange, spacerHeights } from './scroll-range';

/** Where the reader's view is, against the rows drawn and the room kept for the rest. */
export type ScrollPlace =
  /** At the very top of the room before the window: the conversation's start. */
  | { kind: 'start' }
  /** At the very bottom of the room after it: the live tail. */
  | { kind: 'tail' }
  /** Inside the room before (or after) the window, a screen or more from its rows. */
  | { kind: 'before' | 'after'; fraction: number }
  /** Near the window's first (or last) rows: the chunk beside them is added. */
  | { kind: 'older' | 'newer' };

/** How near the rows' edge (px) the chunk beside them is read. */
export const EDGE_PX = 300;

/**
 * The room above and below the window's rows: two empty blocks (hidden from screen readers) sized
 * to what the events outside the window would take, so the scrollbar's thumb shows where the
 * window is in the whole conversation and a drag lands where it points.
 */
export class ScrollSpace {
  private before = 0;
  private after = 0;
  private firstShown: number | null = null;

  constructor(private readonly spaces: () => { before: HTMLElement; after: HTMLElement } | null) {}

  /**
   * Sizes the two blocks for the window [first, last] whose rows are `rows`. When the window still
   * starts where it did, a change of the room above moves the view by as much, so what is read
   * stays put; when rows were added or dropped above, the page's anchor does that.
   */
  fit(
    scroller: HTMLElement,
    rows: HTMLElement,
    range: ScrollRange | null,
    window: { first: number; last: number } | null,
    following: boolean,
  ): void {
    const spaces = this.spaces();
    if (!spaces) return;
    const heights =
      range && window
        ? spacerHeights(range, { ...window, heightPx: rows.offsetHeight })
        : { before: 0, after: 0 };
    const grew = heights.before - this.before;
    const sameStart = window?.first === this.firstShown;
    this.firstShown = window?.first ?? null;
    if (heights.before !== this.before) spaces.before.style.height = `${heights.before}px`;
    if (heights.after !== this.after) spaces.after.style.height = `${heights.after}px`;
    this.before = heights.before;
    this.after = heights.after;
    if (!following && sameStart && grew !== 0) scroller.scrollTop += grew;
  }

  /** Where the view is, given whether events lie before and after the window. */
  place(
    scroller: HTMLElement,
    rows: HTMLElement,
    bounds: { hasOlder: boolean; hasNewer: boolean },
  ): ScrollPlace | null {
    const spaces = this.spaces();
    if (!spaces) return null;
    const top = scroller.scrollTop;
    const view = scroller.clientHeight;
    const origin = scroller.getBoundingClientRect().top - top;
    const rowsTop = rows.getBoundingClientRect().top - origin;
    const rowsBottom = rowsTop + rows.offsetHeight;
    const roomTop = rowsTop - this.before;
    if (bounds.hasOlder && this.before > view) {
      if (top < 1) return { kind: 'start' };
      if (top + view < rowsTop - view)
        return { kind: 'before', fraction: (top - roomTop) / this.before };
    }
    if (bounds.hasNewer && this.after > view) {
      if (top + view >= scroller.scrollHeight - 1) return { kind: 'tail' };
      if (top > rowsBottom + view)
        return { kind: 'after', fraction: (top - rowsBottom) / this.after };
    }
    if (bounds.hasOlder && top < rowsTop + EDGE_PX) return { kind: 'older' };
    if (bounds.hasNewer && top + view > rowsBottom - EDGE_PX) return { kind: 'newer' };
    return null;
  }

  /** Another conversation: nothing of the last window's room holds. */
  reset(): void {
    this.firstShown = null;
  }
}

/** The seq a place inside the room before or after the window points to. */
export function seqOfPlace(
  range: ScrollRange,
  place: { kind: 'before' | 'after'; fraction: number },
  window: { first: number; last: number },
  span: { first: number; last: number },
): number {
  return place.kind === 'before'
    ? range.seqAt(span.first, window.first, place.fraction)
    : range.seqAt(window.last + 1, span.last + 1, place.fraction);
}
