import { rowsToHold, stepsInView } from './conversation-scroll';

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
