import { DestroyRef, Injector } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import type { FindBar } from './find-bar';
import { PageFind } from './page-find';

function setUp(holdsFocus: () => boolean) {
  const gone: ('next' | 'previous')[] = [];
  const bar = {
    holdsFocus,
    go: (direction: 'next' | 'previous') => {
      gone.push(direction);
      return Promise.resolve();
    },
    focus: () => undefined,
  } as unknown as FindBar;
  const scroller = document.createElement('div');
  scroller.tabIndex = 0;
  document.body.append(scroller);
  const find = new PageFind({
    bar: () => bar,
    scroller: () => scroller,
    items: () => [],
    injector: TestBed.inject(Injector),
    destroyRef: TestBed.inject(DestroyRef),
  });
  return { find, gone, scroller };
}

const press = (init: KeyboardEventInit): KeyboardEvent => {
  const event = new KeyboardEvent('keydown', { cancelable: true, bubbles: true, ...init });
  document.dispatchEvent(event);
  return event;
};

describe('the page’s find shortcuts', () => {
  it('opens the bar on Ctrl+F and ⌘F instead of the browser’s find', () => {
    const { find } = setUp(() => false);
    expect(press({ key: 'f', ctrlKey: true }).defaultPrevented).toBe(true);
    expect(find.open()).toBe(true);
    find.close();
    expect(press({ key: 'F', metaKey: true }).defaultPrevented).toBe(true);
    expect(find.open()).toBe(true);
    expect(press({ key: 'f', ctrlKey: true, altKey: true }).defaultPrevented).toBe(false);
    expect(press({ key: 'f' }).defaultPrevented).toBe(false);
  });

  it('lets a second Ctrl+F through to the browser while the keyboard is in the bar', () => {
    let inBar = false;
    const { find } = setUp(() => inBar);
    press({ key: 'f', ctrlKey: true });
    inBar = true;
    expect(press({ key: 'f', ctrlKey: true }).defaultPrevented).toBe(false);
    expect(find.open()).toBe(true);
  });

  it('goes to the next match on F3 and Ctrl+G (Shift: the previous) only while the bar is open', () => {
    const { find, gone } = setUp(() => false);
    expect(press({ key: 'F3' }).defaultPrevented).toBe(false);
    find.show();
    press({ key: 'F3' });
    press({ key: 'F3', shiftKey: true });
    press({ key: 'g', ctrlKey: true });
    expect(gone).toEqual(['next', 'previous', 'next']);
  });

  it('gives the keyboard back where it was when the bar closes, else to the log', () => {
    const { find, scroller } = setUp(() => false);
    const button = document.createElement('button');
    document.body.append(button);
    button.focus();
    find.show();
    find.close();
    expect(document.activeElement).toBe(button);
    find.show();
    button.remove();
    find.close();
    expect(document.activeElement).toBe(scroller);
  });

  it('closes on Escape in the log, the keyboard staying on the step it is on', () => {
    const { find, scroller } = setUp(() => false);
    const step = document.createElement('div');
    step.tabIndex = -1;
    scroller.append(step);
    find.show();
    step.focus();
    step.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(find.open()).toBe(false);
    expect(document.activeElement).toBe(step);
    find.show();
    expect(press({ key: 'Escape' }).defaultPrevented).toBe(false);
    expect(find.open()).toBe(true);
  });

  it('stops listening with the page', () => {
    const { find } = setUp(() => false);
    TestBed.resetTestingModule();
    press({ key: 'f', ctrlKey: true });
    expect(find.open()).toBe(false);
  });
});
