import { Injector, afterNextRender, untracked } from '@angular/core';
import { ConversationStore, PAGE, ReaderStep } from './conversation-store';
import { ScrollSpeed, olderChunk } from './conversation-paging';
import { ScrollRange } from './timeline/scroll-range';
import { EDGE_PX, ScrollPlace, ScrollSpace, seqOfPlace } from './timeline/scroll-space';

/** How far below the view (px) the rows held when a chunk is added above reach: twice EDGE_PX. */
const HOLD_BELOW_PX = 2 * EDGE_PX;
/** A drag of the thumb into the room outside the window is followed once it rests this long. */
const DRAG_SETTLE_MS = 90;

/** What the conversation page lends its scrolling: its elements and its two jumps to an end. */
export interface ScrollParts {
  scroller(): HTMLElement | undefined;
  spaces(): { before: HTMLElement; after: HTMLElement } | null;
  toStart(): Promise<void>;
  toTail(): Promise<void>;
}

/**
 * The conversation log's scrolling: the room kept around the window's rows (an honest scrollbar),
 * the chunk beside the rows added when the view nears them (larger for a fast reader), the
 * conversation's start or tail read when the thumb reaches an end, the events a drag into the
 * room points at read once it rests, and the step under the reader's eyes kept in place.
 */
export class ConversationScroll {
  private readonly space: ScrollSpace;
  private readonly speed = new ScrollSpeed();
  private dragTimer: ReturnType<typeof setTimeout> | undefined;
  /** The view moved while a page was on its way: where it went is looked at once it is shown. */
  private placeMissed = false;

  constructor(
    private readonly store: ConversationStore,
    private readonly injector: Injector,
    private readonly parts: ScrollParts,
  ) {
    this.space = new ScrollSpace(() => parts.spaces());
  }

  /** Sizes the room around the window just drawn (see ScrollSpace.fit). */
  fit(range: ScrollRange | null, following: boolean): void {
    const element = this.parts.scroller();
    const rows = rowsOf(element);
    if (element && rows)
      this.space.fit(element, rows, range, untracked(this.store.windowSpan), following);
  }

  /**
   * After the window was drawn and placed: rows that do not fill the view get the chunk before
   * them; a place the view reached while a page was on its way (a drag) is acted on now.
   */
  /** True while the drawn rows do not fill the log's height. */
  rowsShort(): boolean {
    const element = this.parts.scroller();
    const rows = rowsOf(element);
    return !!element && !!rows && rows.offsetHeight <= element.clientHeight;
  }

  settle(following: boolean): void {
    const element = this.parts.scroller();
    const rows = rowsOf(element);
    if (!element || !rows) return;
    if (
      rows.offsetHeight <= element.clientHeight + EDGE_PX &&
      untracked(() => this.store.bounds().hasOlder)
    ) {
      void this.loadOlder();
    } else if (!following && this.placeMissed) {
      this.placeMissed = false;
      setTimeout(() => this.onScroll(false));
    }
  }

  onScroll(moved = true): void {
    const element = this.parts.scroller();
    const rows = rowsOf(element);
    if (moved && element) this.speed.note(element.scrollTop, performance.now());
    const loading = this.store.loading();
    if (!element || !rows || loading === 'initial') return;
    this.placeMissed = !!loading;
    if (loading === 'jump') return;
    const fromBottom = element.scrollHeight - element.scrollTop - element.clientHeight;
    const bounds = this.store.bounds();
    const atTail = fromBottom < 48 && !bounds.hasNewer;
    if (!loading) this.store.following.set(atTail);
    // The page's own move to the bottom after each slice of the opening: the slices are adding
    // the rows above, a slice a task; taking them here would render all the rest in one task.
    // A reader who scrolls up takes them at once.
    if (atTail && untracked(this.store.filling)) return;
    clearTimeout(this.dragTimer);
    const place = this.space.place(element, rows, bounds);
    if (place) this.goTo(place, !!loading);
  }

  /** The window was replaced (Home, a jump): the positions before say nothing of the speed. */
  jumped(): void {
    this.speed.reset();
  }

  /** Another conversation. */
  reset(): void {
    clearTimeout(this.dragTimer);
    this.space.reset();
    this.speed.reset();
  }

  /**
   * Acts on where the view is: the conversation's start or tail read at once (the thumb dragged
   * to an end), a place in the room outside the window read once the drag rests there, the chunk
   * beside the rows added when near them (the larger one for a fast reader).
   */
  private goTo(place: ScrollPlace, loading: boolean): void {
    switch (place.kind) {
      case 'start':
        void this.parts.toStart();
        return;
      case 'tail':
        void this.parts.toTail();
        return;
      case 'before':
      case 'after':
        this.dragTimer = setTimeout(() => void this.toPlace(place), DRAG_SETTLE_MS);
        return;
      case 'older':
        if (!loading) void this.loadOlder(olderChunk(this.speed.upwards()));
        return;
      case 'newer':
        if (!loading) void this.loadNewer();
    }
  }

  /** Reads the events a place in the room outside the window stands for, and shows them there. */
  private async toPlace(place: { kind: 'before' | 'after'; fraction: number }): Promise<void> {
    const range = this.store.scrollRange();
    const window = this.store.windowSpan();
    if (!range || !window) return;
    const seq = seqOfPlace(range, place, window, this.store.span());
    this.speed.reset();
    if (!(await this.store.jumpTo(seq))) return;
    afterNextRender(
      () => {
        const element = this.parts.scroller();
        const steps = element ? [...element.querySelectorAll<HTMLElement>('[data-seq]')] : [];
        const target = steps.find((step) => Number(step.dataset['seq']) >= seq);
        if (!element || !target) return;
        element.scrollTop +=
          target.getBoundingClientRect().top - element.getBoundingClientRect().top;
      },
      { injector: this.injector },
    );
  }

  private async loadOlder(size = PAGE): Promise<void> {
    await this.keepAnchor((reader) => this.store.loadOlder(size, reader));
  }

  private async loadNewer(): Promise<void> {
    await this.keepAnchor((reader) => this.store.loadNewer(reader));
  }

  /**
   * Keeps the step under the reader's eyes in place while chunks are added or dropped around it.
   * The steps are those read as the chunk is shown, not as it was asked for: the reader may have
   * scrolled anywhere meanwhile (a drag of the thumb while a page was on its way). The first of
   * them still drawn is put back where it was: a tool's result at the window's edge becomes part
   * of its call's step once the call arrives, and that step starts elsewhere.
   */
  private async keepAnchor(
    load: (reader: () => ReaderStep | undefined) => Promise<boolean>,
  ): Promise<void> {
    const element = this.parts.scroller();
    if (!element) return;
    let held: StepInView[] = [];
    const reader = () => {
      held = stepsInView(element);
      return held[0] ? { seq: Number(held[0].seq), rows: rowsToHold(element) } : undefined;
    };
    // A page overtaken by a jump (End while it was on its way) moves nothing.
    if (!(await load(reader))) return;
    const anchors = held;
    afterNextRender(
      () => {
        const top = element.getBoundingClientRect().top;
        for (const anchor of anchors) {
          const same = element.querySelector<HTMLElement>(`[data-seq="${anchor.seq}"]`);
          if (!same) continue;
          element.scrollTop += same.getBoundingClientRect().top - top - anchor.offset;
          return;
        }
      },
      { injector: this.injector },
    );
  }
}

/** A step of the log and how far below the view's top it starts (px). */
export interface StepInView {
  seq: string;
  offset: number;
}

/** The steps whose rows are in the view, from its top down. */
export function stepsInView(scroller: HTMLElement): StepInView[] {
  const box = scroller.getBoundingClientRect();
  const shown: StepInView[] = [];
  for (const step of scroller.querySelectorAll<HTMLElement>('[data-seq]')) {
    const { top, bottom } = step.getBoundingClientRect();
    const seq = step.dataset['seq'];
    if (bottom > box.top && top < box.bottom && seq !== undefined)
      shown.push({ seq, offset: top - box.top });
    else if (shown.length) break;
  }
  return shown;
}

/**
 * Rows from the first in view down to HOLD_BELOW_PX below the view: what stays on screen when a
 * chunk is added above (past the edge at which the chunk after the window would be read, so a
 * reader going up does not read the later rows again).
 */
export function rowsToHold(scroller: HTMLElement): number {
  const box = scroller.getBoundingClientRect();
  let rows = 0;
  for (const step of scroller.querySelectorAll<HTMLElement>('[data-seq]')) {
    const { top, bottom } = step.getBoundingClientRect();
    if (bottom <= box.top) continue;
    if (top >= box.bottom + HOLD_BELOW_PX) break;
    rows++;
  }
  return rows;
}

/** The element holding the window's rows. */
function rowsOf(scroller: HTMLElement | undefined): HTMLElement | null {
  return scroller?.querySelector<HTMLElement>('app-timeline-view') ?? null;
}
