import { DestroyRef, Injector, afterNextRender, signal } from '@angular/core';
import type { TimelineItem } from '../timeline/timeline-item';
import type { FindBar } from './find-bar';
import { clearFound, markFound } from './find-marks';

/** After a jump, the rows near the view are drawn within a few frames: the marks wait for them. */
const MARK_AFTER_MS = 120;

export interface PageFindDeps {
  bar: () => FindBar | undefined;
  scroller: () => HTMLElement | undefined;
  items: () => readonly TimelineItem[];
  injector: Injector;
  destroyRef: DestroyRef;
}

/**
 * The conversation page's side of its find bar: the shortcut that opens it, where the focus goes
 * back when it closes, which row holds a found event, and the marks on it.
 */
export class PageFind {
  readonly open = signal(false);
  private returnTo: HTMLElement | null = null;
  private shown: HTMLElement | null = null;
  private markTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly deps: PageFindDeps) {
    // Added by hand rather than as a host listener: a `document:` target would cost the first
    // bundle an export (its resolver) the console's budget has no room for.
    const onKeydown = (event: KeyboardEvent): void => this.onKeydown(event);
    document.addEventListener('keydown', onKeydown);
    deps.destroyRef.onDestroy(() => document.removeEventListener('keydown', onKeydown));
  }

  /**
   * Ctrl+F (Cmd+F) opens the bar, or goes back into it; pressed again in the bar, it is the
   * browser's own find (of the drawn steps). F3 and Ctrl+G go to the next match (Shift: previous).
   */
  onKeydown(event: KeyboardEvent): void {
    const command = (event.ctrlKey || event.metaKey) && !event.altKey;
    const key = event.key.toLowerCase();
    if (command && !event.shiftKey && key === 'f') {
      if (this.open() && this.deps.bar()?.holdsFocus()) return;
      event.preventDefault();
      this.show();
    } else if (this.open() && (event.key === 'F3' || (command && key === 'g'))) {
      event.preventDefault();
      void this.deps.bar()?.go(event.shiftKey ? 'previous' : 'next');
    } else if (this.open() && event.key === 'Escape' && this.inLog(event.target)) {
      // On the step a match led to: the bar closes, the keyboard stays where the reading is.
      event.preventDefault();
      this.close(false);
    }
  }

  /** Opens the bar (the palette's "Find in the conversation" too), the keyboard in its field. */
  show(): void {
    const active = document.activeElement;
    if (active instanceof HTMLElement && !active.closest('app-find-bar')) this.returnTo = active;
    this.open.set(true);
    afterNextRender(() => this.deps.bar()?.focus(), { injector: this.deps.injector });
  }

  /** Closes the bar: its marks go, the keyboard goes back where it was (or to the log). */
  close(giveBack = true): void {
    this.open.set(false);
    this.unmark();
    const back = this.returnTo?.isConnected ? this.returnTo : this.deps.scroller();
    this.returnTo = null;
    if (giveBack) back?.focus({ preventScroll: true });
  }

  private inLog(target: EventTarget | null): boolean {
    return target instanceof Node && !!this.deps.scroller()?.contains(target);
  }

  /** The seq of the first step in view: the first Enter goes to the first match from there. */
  readonly viewSeq = (): number => {
    const scroller = this.deps.scroller();
    if (!scroller) return 0;
    const top = scroller.getBoundingClientRect().top;
    for (const step of scroller.querySelectorAll<HTMLElement>('[data-seq]'))
      if (step.getBoundingClientRect().bottom > top) return Number(step.dataset['seq']);
    return 0;
  };

  /** The step of the row that shows the event `seq` (a tool's result is shown in its call's row). */
  stepHolding(scroller: HTMLElement, seq: number): HTMLElement | null {
    const items = this.deps.items();
    const row = rowHolding(items, seq);
    if (!row) return null;
    const sameSeq = items.filter((item) => item.seq === row.seq);
    const steps = scroller.querySelectorAll<HTMLElement>(`[data-seq="${row.seq}"]`);
    return steps[sameSeq.indexOf(row)] ?? steps[0] ?? null;
  }

  /** Highlights the step shown and marks the text found in it once it is drawn. */
  mark(step: HTMLElement, query: string): void {
    this.unmark();
    this.shown = step;
    step.classList.add('highlight');
    this.markTimer = setTimeout(() => markFound(step, query), MARK_AFTER_MS);
  }

  private unmark(): void {
    clearTimeout(this.markTimer);
    this.shown?.classList.remove('highlight');
    this.shown = null;
    clearFound();
  }
}

/**
 * The row that shows event `seq`: the one it starts, the tool call its result joined, the reply
 * its completion filled; else the last row started before it (a streamed reply's later pieces).
 */
export function rowHolding(items: readonly TimelineItem[], seq: number): TimelineItem | null {
  let before: TimelineItem | null = null;
  for (const item of items) {
    if (item.seq === seq) return item;
    if (item.kind === 'tool' && item.result?.seq === seq) return item;
    if (item.kind === 'orphan-result' && item.result.seq === seq) return item;
    if (item.kind === 'text' && item.clippedSeq === seq) return item;
    if (item.seq < seq && (!before || item.seq >= before.seq)) before = item;
  }
  return before;
}
