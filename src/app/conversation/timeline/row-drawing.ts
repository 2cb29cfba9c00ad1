import { DestroyRef, afterRenderEffect, computed, inject, signal } from '@angular/core';
import { TimelineItem } from './timeline-item';
import { PLACEHOLDER_ELEMENTS, RowCosts } from './row-cost';
import { RowBox, RowHeights, rowsToDraw } from './near-rows';

/** Rows within this many view heights of the view are drawn (those drawn stay within twice it). */
const MARGIN_VIEWS = 0.75;

/** Where the reader is, put back after rows turned real or placeholder: the bottom, or a step. */
type Anchor =
  { kind: 'bottom' } | { kind: 'steps'; steps: { step: HTMLElement; offset: number }[] };

/**
 * Which rows of the log are drawn: those within about a screen of the view. The others are
 * placeholders, as tall as the row measured when it was last drawn (else its estimate), so a chunk
 * added above the reader renders only the rows near them and a way up passes over rows nobody saw.
 * While all the window's rows fit the element budget, all are drawn; else a row added starts as a
 * placeholder and is drawn, before the frame is painted, when it is near the view (decided from
 * the layout after each render and on each scroll). When rows above the reader change height as
 * they turn, the step they read (or the bottom) is put back where it was.
 */
export class RowDrawing {
  /** Keys of the rows drawn (once the log is known: before, every row is). */
  readonly drawn = signal<ReadonlySet<string>>(new Set());
  /** True once the scrolling log around the rows is known. */
  readonly active = signal(false);
  private scroller: HTMLElement | null = null;
  private anchor: Anchor | null = null;
  private readonly heights = new RowHeights();
  private readonly costs = new RowCosts();

  constructor(
    private readonly host: HTMLElement,
    private readonly items: () => readonly TimelineItem[],
  ) {
    const onScroll = () => this.decide();
    let renders = 0;
    // After each render of other rows, or of rows turned: the write puts the reader back, the
    // read (which follows each write) measures and decides.
    afterRenderEffect({
      write: () => {
        this.items();
        this.drawn();
        this.putBack();
        return ++renders;
      },
      read: (written) => {
        written();
        if (!this.scroller) this.start(onScroll);
        if (!this.scroller) return;
        this.measure();
        this.decide();
      },
    });
    inject(DestroyRef).onDestroy(() => this.scroller?.removeEventListener('scroll', onScroll));
  }

  /**
   * True while every row of the window fits the element budget: all are drawn, and nothing is
   * laid out twice (a row added is not a placeholder first).
   */
  private readonly allFit = computed(() => {
    const items = this.items();
    let cost = 0;
    for (const item of items) cost += this.costs.of(item);
    return cost <= this.cap(items.length);
  });

  /** Whether the row of `key` is drawn (read in the template: a signal). */
  shows(key: string): boolean {
    return !this.active() || this.allFit() || this.drawn().has(key);
  }

  /** A placeholder's height (px); null for a row drawn. */
  heightOf(item: TimelineItem): number | null {
    return this.shows(item.key) ? null : this.heights.of(item);
  }

  private start(onScroll: () => void): void {
    const scroller = scrollingParent(this.host);
    if (!scroller) return;
    this.scroller = scroller;
    scroller.addEventListener('scroll', onScroll, { passive: true });
    this.drawn.set(new Set(this.items().map((item) => item.key)));
    this.active.set(true);
  }

  /** Notes the drawn rows' heights and elements, for their placeholders and the element cap. */
  private measure(): void {
    const byKey = new Map(this.items().map((item) => [item.key, item]));
    const elements = new Map<string, number>();
    for (const step of this.steps()) {
      const key = step.dataset['key'];
      const item = key === undefined ? undefined : byKey.get(key);
      if (!item) continue;
      this.heights.note(item, step.offsetHeight);
      elements.set(item.key, step.getElementsByTagName('*').length + 1);
    }
    this.costs.noteDrawn(this.items(), elements, document.getElementsByTagName('*').length);
  }

  /** Elements the drawn rows may hold beside `rows` rows (the others placeholders). */
  private cap(rows: number): number {
    return this.costs.budget() - rows * PLACEHOLDER_ELEMENTS;
  }

  /** Draws the rows near the view, and notes where the reader is to put them back after. */
  private decide(): void {
    const scroller = this.scroller;
    if (!scroller) return;
    const items = this.items();
    if (this.allFit()) {
      // All drawn: the set follows without reading the layout, so none turns when they stop fitting.
      const keys = new Set(items.map((item) => item.key));
      if (!sameKeys(keys, this.drawn())) this.drawn.set(keys);
      return;
    }
    const steps = this.steps();
    if (steps.length !== items.length) return;
    const box = scroller.getBoundingClientRect();
    const drawn = this.drawn();
    const focus = document.activeElement;
    const rows: RowBox[] = items.map((item, i) => {
      const step = steps[i]!;
      const { top, bottom } = step.getBoundingClientRect();
      const isDrawn = drawn.has(item.key);
      return {
        key: item.key,
        top: top - box.top,
        bottom: bottom - box.top,
        cost: this.costs.of(item),
        drawn: isDrawn,
        focused: focus !== step && !!focus && step.contains(focus),
      };
    });
    const next = rowsToDraw(rows, box.height, this.cap(items.length), MARGIN_VIEWS * box.height);
    if (sameKeys(next, drawn)) return;
    this.anchor ??= readerAnchor(scroller, steps);
    this.drawn.set(next);
  }

  /** Puts the reader back where they were before rows turned. */
  private putBack(): void {
    const anchor = this.anchor;
    const scroller = this.scroller;
    this.anchor = null;
    if (!anchor || !scroller) return;
    if (anchor.kind === 'bottom') {
      scroller.scrollTop = scroller.scrollHeight;
    } else {
      // The first still there: a step at the window's edge may have joined another meanwhile.
      const held = anchor.steps.find(({ step }) => step.isConnected);
      if (!held) return;
      const top = scroller.getBoundingClientRect().top;
      const moved = held.step.getBoundingClientRect().top - top - held.offset;
      if (moved !== 0) scroller.scrollTop += moved;
    }
  }

  private steps(): HTMLElement[] {
    return [...this.host.children].filter(
      (child): child is HTMLElement => child instanceof HTMLElement && 'seq' in child.dataset,
    );
  }
}

/** The reader's place: the bottom of the log when they are there, else the steps in view. */
function readerAnchor(scroller: HTMLElement, steps: readonly HTMLElement[]): Anchor | null {
  if (scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 2)
    return { kind: 'bottom' };
  const { top, bottom } = scroller.getBoundingClientRect();
  const held: { step: HTMLElement; offset: number }[] = [];
  for (const step of steps) {
    const box = step.getBoundingClientRect();
    if (box.bottom > top && box.top < bottom) held.push({ step, offset: box.top - top });
    else if (held.length) break;
  }
  // A step starting in the view first: one across its top may be a placeholder that turns now,
  // and what the reader sees start is what stays.
  held.sort((a, b) => Number(a.offset < -0.5) - Number(b.offset < -0.5));
  return held.length ? { kind: 'steps', steps: held } : null;
}

/** The nearest ancestor that scrolls vertically. */
function scrollingParent(element: HTMLElement): HTMLElement | null {
  for (let parent = element.parentElement; parent; parent = parent.parentElement) {
    const overflow = getComputedStyle(parent).overflowY;
    if (overflow === 'auto' || overflow === 'scroll') return parent;
  }
  return null;
}

function sameKeys(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size !== b.size) return false;
  for (const key of a) if (!b.has(key)) return false;
  return true;
}
