// The first reads are spelled once, in core (the early reads before Angular boots use them too).
import { PAGE } from '../core/early-reads';
export { EVENT_CLIP, FIRST_PAGE, PAGE } from '../core/early-reads';

// How the conversation's window is sized and moved (see ConversationStore).

/** Events kept in memory and on screen at once; older or newer ones are fetched on scroll. */
export const WINDOW_MAX = 240;
/**
 * The chunk asked for when the reader outruns the history (at the very top): the daemon's largest,
 * so the way to the first event takes a round trip every few steps, not at each (a page of heavy
 * events stops at its weight anyway).
 */
export const FAST_PAGE = 500;
/**
 * Rows on screen at once, whatever number of events make them: an imported transcript renders
 * a row for most lines, Relais' own sessions one for every four or so (permission and state lines
 * render inside other rows), so a window counted in events alone let dense conversations grow the
 * page past 1,500 elements.
 */
export const ROWS_MAX = 96;
/**
 * Rows a fast reader's window may hold (see FAST_PAGE): the rows far from the view are placeholders
 * of one element (timeline/near-rows.ts), so a step up adds the whole larger chunk and draws only
 * the rows near the view. The window is also held to the element budget less NEAR_ELEMENTS.
 */
export const FAST_WINDOW_ROWS = 400;
/** Of the element budget, what a fast reader's window leaves to the rows drawn near the view. */
export const NEAR_ELEMENTS = 500;
/**
 * Rows of a conversation's first render; the rest of the first chunk is added above in slices
 * sized by SlicePace. The first render of a row type costs most: 24 rows in one task took 90-140
 * ms on this machine, and a task over 50 ms holds back whatever the person types. With the CPU
 * slowed twice, the first render of 8 rows took 54-80 ms traced, of 4 49-74.
 */
export const OPEN_SLICE_ROWS = 4;
/**
 * What a slice of the opening may take to render, in ms: the next slice is sized from what the
 * last one took, so a loaded or slow machine gets smaller slices and no task passes 50 ms (the
 * paint and the layout after it come on top).
 */
export const SLICE_BUDGET_MS = 20;
/** A slice holds at least this many rows (the rest is shown in a bounded number of tasks)... */
const SLICE_ROWS_MIN = 2;
/** ...and at most this many (one slice's cost says little of a much larger one). */
const SLICE_ROWS_MAX = 24;
/**
 * Rows already on screen that stay when a chunk is added beside them (the reader's place): at
 * most, and when the page did not count those in and just below its view.
 */
export const ANCHOR_ROWS = 24;
/** While following the live tail, rows are counted again every this many events (not each one). */
export const LIVE_FIT_EVERY = 8;
/** Events shown before the one a jump goes to, for context. */
export const JUMP_CONTEXT = 20;
/** The outline is read in slices of this many seqs: every full slice is past, cached for good. */
export const OUTLINE_SLICE = 2000;
/**
 * Upward speed, in px per ms, from which a reader near the top of the window is taken to be
 * flicking or dragging (2,000 px a second: a few screens): the chunk read is the larger one and
 * the next is read ahead of them. A slower reader gets PAGE, the lighter read.
 */
export const FAST_SCROLL = 2;
/** The scroll's speed is judged on its movements of this many last ms. */
const SPEED_SPAN_MS = 200;

/** The reader's speed up or down, from the scroll positions seen over the last moments. */
export class ScrollSpeed {
  private samples: { top: number; ms: number }[] = [];

  note(top: number, ms: number): void {
    this.samples.push({ top, ms });
    while (this.samples.length > 2 && ms - this.samples[0]!.ms > SPEED_SPAN_MS)
      this.samples.shift();
  }

  /** Px per ms upwards (negative: downwards), over the span kept. */
  upwards(): number {
    const first = this.samples[0];
    const last = this.samples.at(-1);
    if (!first || !last || last === first) return 0;
    return (first.top - last.top) / Math.max(1, last.ms - first.ms);
  }

  /** A jump replaced the window: positions before it say nothing of the speed. */
  reset(): void {
    this.samples = [];
  }
}

/** The chunk to read before the window for a reader going up at `speed` px per ms. */
export function olderChunk(speed: number): number {
  return speed >= FAST_SCROLL ? FAST_PAGE : PAGE;
}

/**
 * Rows a fast reader's window holds, given the element budget of the timeline: placeholders but
 * those near the view (NEAR_ELEMENTS), at most FAST_WINDOW_ROWS, never fewer than ROWS_MAX.
 */
export function fastWindowRows(budget: number): number {
  return Math.max(ROWS_MAX, Math.min(FAST_WINDOW_ROWS, budget - NEAR_ELEMENTS));
}

/**
 * How many rows the next slice of the opening renders: from the time the last slice's frame took
 * per row, scaled to SLICE_BUDGET_MS. The first render holds OPEN_SLICE_ROWS.
 */
export class SlicePace {
  private next = OPEN_SLICE_ROWS;

  rows(): number {
    return this.next;
  }

  /**
   * A slice of `rows` rows was rendered in a frame of `ms` (0: not measured, nothing learnt). The
   * next slice is at most twice as large: a frame that missed the render (Angular rendered in a
   * timer before it) looks cheap, and one such reading must not make the next slice 24 rows.
   */
  note(rows: number, ms: number): void {
    if (rows <= 0 || !(ms > 0)) return;
    const fitting = Math.min(2 * rows, Math.round((SLICE_BUDGET_MS * rows) / ms));
    this.next = Math.min(SLICE_ROWS_MAX, Math.max(SLICE_ROWS_MIN, fitting));
  }
}
