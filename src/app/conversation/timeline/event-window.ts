import { SessionEvent } from '../../../../contract/api';

/** Merges two runs of events into one, sorted by seq, each seq once (the incoming copy wins). */
export function mergeEvents(
  existing: readonly SessionEvent[],
  incoming: readonly SessionEvent[],
): SessionEvent[] {
  if (incoming.length === 0) return [...existing];
  const last = existing[existing.length - 1];
  const firstIncoming = incoming[0]!;
  if (!last || firstIncoming.seq > last.seq) return [...existing, ...incoming];
  const bySeq = new Map<number, SessionEvent>();
  for (const event of existing) bySeq.set(event.seq, event);
  for (const event of incoming) bySeq.set(event.seq, event);
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}

/** Keeps at most `max` events, dropping from the side away from where the person looks. */
export function trimWindow(
  events: readonly SessionEvent[],
  max: number,
  keep: 'start' | 'end',
): SessionEvent[] {
  if (events.length <= max) return [...events];
  return keep === 'end' ? events.slice(events.length - max) : events.slice(0, max);
}

export interface WindowBounds {
  hasOlder: boolean;
  hasNewer: boolean;
}

/** Whether events exist before or after the window, given the conversation's first and last seq. */
export function windowBounds(
  events: readonly SessionEvent[],
  firstSeq: number | null,
  lastSeq: number,
): WindowBounds {
  const first = events[0];
  const last = events[events.length - 1];
  if (!first || !last) return { hasOlder: false, hasNewer: lastSeq > 0 && firstSeq !== null };
  return { hasOlder: firstSeq !== null && first.seq > firstSeq, hasNewer: last.seq < lastSeq };
}

export interface RowTrim {
  /** The side the reader is at: rows are dropped from the other one. */
  keep: 'start' | 'end';
  /**
   * After a chunk was added on the `keep` side: the window's edge before (its first seq when
   * loading older, its last when loading newer) and how many of its rows stay, so what the
   * person was reading does not move away; the new chunk gives way instead.
   */
  anchorSeq?: number;
  anchorRows?: number;
  /**
   * The step the reader is on as the chunk is shown (they may have scrolled anywhere while it was
   * on its way): its rows stay, and the anchor's rows are counted from it when it is nearer the
   * side dropped.
   */
  readerSeq?: number;
}

/** What the rows of a window cost, and how much of it may be on screen (elements, say). */
export interface RowWeights {
  costs: readonly number[];
  max: number;
}

/**
 * Keeps the events that make at most `max` rows on screen, and, with `weights`, rows costing at
 * most `weights.max` in all. `rowSeqs` gives, in order, the seq of the event each rendered row
 * starts at (one event may start several rows, or none). Whole events are dropped; the window
 * stays contiguous and keeps at least one row.
 */
export function trimRows(
  events: readonly SessionEvent[],
  rowSeqs: readonly number[],
  max: number,
  trim: RowTrim,
  weights?: RowWeights,
): SessionEvent[] {
  const n = rowSeqs.length;
  if (n <= max && (!weights || sum(weights.costs) <= weights.max)) return [...events];
  let [start, end] = rowRange(rowSeqs, new RowBudget(max, weights), trim);
  // An event's rows stay together: move each cut inwards past rows of the event it would split.
  while (start > 0 && start < n && rowSeqs[start - 1] === rowSeqs[start]) start++;
  while (end > start && end < n && rowSeqs[end - 1] === rowSeqs[end]) end--;
  const from = start === 0 ? -Infinity : rowSeqs[start]!;
  const to = end >= n ? Infinity : rowSeqs[end]!;
  const kept = events.filter((event) => event.seq >= from && event.seq < to);
  if (kept.length) return kept;
  return trim.keep === 'end' ? events.slice(-1) : events.slice(0, 1);
}

/** Rows taken one by one into the window while both its row count and its cost allow. */
class RowBudget {
  private rows = 0;
  private cost = 0;
  constructor(
    private readonly max: number,
    private readonly weights: RowWeights | undefined,
  ) {}

  /** Takes row `index` if it fits, its cost within `share` of the weights' (the first always does). */
  take(index: number, share = 1): boolean {
    const cost = this.weights?.costs[index] ?? 0;
    const fits =
      this.rows < this.max && this.cost + cost <= (this.weights?.max ?? Infinity) * share;
    if (!fits && this.rows > 0) return false;
    this.rows++;
    this.cost += cost;
    return true;
  }
}

/**
 * [start, end) of the rows to keep, before the cuts are moved to event boundaries. Grown from the
 * reader's side: first the anchor's rows (at most half the weights' budget, so a chunk added beside heavy
 * rows still shows some of its own and scrolling goes on), then into the added chunk, then on.
 */
function rowRange(rowSeqs: readonly number[], budget: RowBudget, trim: RowTrim): [number, number] {
  const n = rowSeqs.length;
  const held = trim.anchorRows ?? 0;
  if (trim.keep === 'start') {
    const from = Math.max(trim.anchorSeq ?? -Infinity, trim.readerSeq ?? -Infinity);
    const firstOld = from === -Infinity ? 0 : firstIndex(rowSeqs, (seq) => seq >= from);
    let [start, end] = [firstOld, firstOld];
    while (end < n && end - firstOld < held && budget.take(end, 0.5)) end++;
    while (start > 0 && budget.take(start - 1)) start--;
    while (end < n && budget.take(end)) end++;
    return [start, end];
  }
  const afterAnchor =
    trim.anchorSeq === undefined ? n : firstIndex(rowSeqs, (seq) => seq > trim.anchorSeq!);
  const reader =
    trim.readerSeq === undefined ? n : firstIndex(rowSeqs, (seq) => seq >= trim.readerSeq!);
  const firstNew = Math.min(afterAnchor, reader + held);
  let [start, end] = [firstNew, firstNew];
  while (start > 0 && firstNew - start < held && budget.take(start - 1, 0.5)) start--;
  while (end < n && budget.take(end)) end++;
  while (start > 0 && budget.take(start - 1)) start--;
  return [start, end];
}

function sum(values: readonly number[]): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}

function firstIndex(rowSeqs: readonly number[], test: (seq: number) => boolean): number {
  const index = rowSeqs.findIndex(test);
  return index === -1 ? rowSeqs.length : index;
}
