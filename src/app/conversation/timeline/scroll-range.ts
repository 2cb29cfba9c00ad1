import type { ConversationIndex } from './conversation-index';

/**
 * Where the window sits in the whole conversation, in "weight": about what the events of a range
 * render. The outline (the index of turns and tool calls) says it where it has been read: a turn
 * is a prompt and a reply, a tool call a card. Where it has not, events count at the density the
 * outline showed (or one each, before it arrived). Every range also weighs a little per event, so
 * a stretch with no turn or tool still takes some room. The page turns weight into pixels at the
 * rate its rendered rows show, so the scrollbar's thumb stands where the window is in the whole.
 */
export class ScrollRange {
  /** Seqs of the outline's marks, sorted; a turn twice (its prompt and its reply). */
  private readonly marks: number[];
  /** The last seq the outline covers (0: none). */
  private readonly coveredTo: number;
  /** Weight per event where the outline has not been read. */
  private readonly density: number;

  constructor(
    index: Pick<ConversationIndex, 'turns' | 'tools' | 'scannedTo'>,
    private readonly firstSeq: number,
    private readonly lastSeq: number,
  ) {
    this.coveredTo = index.scannedTo;
    this.marks = [
      ...index.turns.flatMap((turn) => [turn.seq, turn.seq]),
      ...index.tools.map((t) => t.seq),
    ];
    this.marks.sort((a, b) => a - b);
    const span = this.coveredTo - firstSeq + 1;
    this.density = this.coveredTo > 0 && span > 0 ? this.marks.length / span + EVENT_WEIGHT : 1;
  }

  /** The weight of the events with from <= seq < to. */
  weight(from: number, to: number): number {
    const start = Math.max(from, this.firstSeq);
    const end = Math.min(to, this.lastSeq + 1);
    if (end <= start) return 0;
    const coveredEnd = Math.min(end, this.coveredTo + 1);
    let total = 0;
    if (coveredEnd > start) {
      total += countBelow(this.marks, coveredEnd) - countBelow(this.marks, start);
      total += (coveredEnd - start) * EVENT_WEIGHT;
    }
    total += Math.max(0, end - Math.max(start, coveredEnd)) * this.density;
    return total;
  }

  /**
   * The seq found `fraction` (0..1) of the way through the weight of [from, to): where a thumb
   * dragged to that point of the range before (or after) the window lands.
   */
  seqAt(from: number, to: number, fraction: number): number {
    const start = Math.max(from, this.firstSeq);
    const end = Math.min(to, this.lastSeq + 1);
    if (end <= start + 1) return start;
    const wanted = Math.min(1, Math.max(0, fraction)) * this.weight(start, end);
    // Bisection on the weight's running total: it only grows with the seq.
    let [low, high] = [start, end - 1];
    while (low < high) {
      const middle = Math.floor((low + high + 1) / 2);
      if (this.weight(start, middle) <= wanted) low = middle;
      else high = middle - 1;
    }
    return low;
  }
}

/** What any event weighs beside the marks (a reply without a tool, a notice). */
const EVENT_WEIGHT = 0.05;

/** How many of the sorted `values` are below `limit`. */
function countBelow(values: readonly number[], limit: number): number {
  let [low, high] = [0, values.length];
  while (low < high) {
    const middle = (low + high) >> 1;
    if (values[middle]! < limit) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Pixels a spacer may take: far below what a browser lays out, far above any conversation's need. */
export const SPACE_MAX_PX = 4_000_000;

/** The spacers' heights around a window, given what its rows measured on screen. */
export function spacerHeights(
  range: ScrollRange,
  window: { first: number; last: number; heightPx: number },
): { before: number; after: number; pxPerWeight: number } {
  const inside = range.weight(window.first, window.last + 1);
  const pxPerWeight = inside > 0 && window.heightPx > 0 ? window.heightPx / inside : 0;
  const px = (weight: number) => Math.min(SPACE_MAX_PX, Math.round(weight * pxPerWeight));
  return {
    before: px(range.weight(-Infinity, window.first)),
    after: px(range.weight(window.last + 1, Infinity)),
    pxPerWeight,
  };
}
