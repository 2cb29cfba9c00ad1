import { Injector, signal } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { ConversationScroll, rowsToHold, stepsInView } from './conversation-scroll';
import { ConversationStore } from './conversation-store';

/** A log of steps stacked from `top`, each `height` px, its view [0, 600) px. */
function log(heights: number[], top: number): HTMLElement {
  const scroller = document.createElement('div');
  place(scroller, 0, 600);
  let y = top;
  heights.forEach((height, i) => {
    const step = document.createElement('div');
    step.dataset['seq'] = String(i + 1);
    place(step, y, height);
    scroller.appendChild(step);
    y += height;
  });
  return scroller;
}

function place(element: HTMLElement, top: number, height: number): void {
  element.getBoundingClientRect = () =>
    ({ top, bottom: top + height, left: 0, right: 800, height, width: 800 }) as DOMRect;
}

describe('the rows held when a chunk is added above', () => {
  it('are those in view and those starting within 600 px below it, not a fixed count', () => {
    // Rows of 250 px from 100 px above the view's top: 1..3 in view (to 650), 4..5 start
    // before 1,200 px, 6 starts at 1,150, 7 at 1,400.
    const scroller = log([250, 250, 250, 250, 250, 250, 250, 250], -100);
    expect(stepsInView(scroller).map((step) => step.seq)).toEqual(['1', '2', '3']);
    expect(rowsToHold(scroller)).toBe(6);
  });

  it('count many short rows when they fill the view', () => {
    const scroller = log(new Array<number>(100).fill(20), 0);
    expect(rowsToHold(scroller)).toBe(60);
  });
});

describe('a scroll while the opening adds its first chunk a slice a task', () => {
  /**
   * A log at its very bottom (or `up` px above it): 8,000 px of room before 800 px of rows, a
   * view of 900 px, so the rows' top is within reach of the view (the chunk above is wanted).
   */
  function opening(filling: boolean, up = 0) {
    const scroller = document.createElement('div');
    const before = document.createElement('div');
    const rows = document.createElement('app-timeline-view');
    const after = document.createElement('div');
    scroller.append(before, rows, after);
    const roomPx = 8000;
    const rowsPx = 800;
    const viewPx = 900;
    const top = roomPx + rowsPx - viewPx - up;
    Object.defineProperties(scroller, {
      scrollTop: { value: top, writable: true },
      scrollHeight: { value: roomPx + rowsPx },
      clientHeight: { value: viewPx },
    });
    Object.defineProperty(rows, 'offsetHeight', { value: rowsPx });
    place(scroller, 0, viewPx);
    place(rows, roomPx - top, rowsPx);
    const loadOlder = vi.fn(async () => true);
    const store = {
      loading: signal(null),
      filling: signal(filling),
      following: signal(true),
      bounds: signal({ hasOlder: true, hasNewer: false }),
      windowSpan: signal({ first: 9001, last: 10000 }),
      loadOlder,
    } as unknown as ConversationStore;
    const scroll = new ConversationScroll(store, TestBed.inject(Injector), {
      scroller: () => scroller,
      spaces: () => ({ before, after }),
      toStart: async () => undefined,
      toTail: async () => undefined,
    });
    return { scroll, loadOlder, store };
  }

  it('at the bottom (the page following its tail) leaves the rows above to the slices', () => {
    const { scroll, loadOlder, store } = opening(true);
    scroll.onScroll();
    expect(loadOlder).not.toHaveBeenCalled();
    expect(store.following()).toBe(true);
  });

  it('up from the bottom (a reader) takes the chunk above at once', () => {
    const { scroll, loadOlder, store } = opening(true, 200);
    scroll.onScroll();
    expect(loadOlder).toHaveBeenCalledTimes(1);
    expect(store.following()).toBe(false);
  });

  it('once the opening is done, at the bottom, adds the chunk above rows that are short', () => {
    const { scroll, loadOlder } = opening(false);
    scroll.onScroll();
    expect(loadOlder).toHaveBeenCalledTimes(1);
  });
});
