import {
  FIRST_PAINT_ID,
  dismissFirstPaint,
  firstPaintShown,
  holdShortcuts,
  takeFirstPaintShortcut,
} from './handoff';

describe('shortcuts pressed during the first paint', () => {
  const press = (init: KeyboardEventInit, target: EventTarget = document.body) => {
    const event = new KeyboardEvent('keydown', { bubbles: true, cancelable: true, ...init });
    target.dispatchEvent(event);
    return event;
  };

  it('keeps Ctrl+K (not for the browser) and `?` outside a text box, for the console to act on once', () => {
    holdShortcuts();
    expect(press({ key: 'k', ctrlKey: true }).defaultPrevented).toBe(true);
    expect(press({ key: 'x' }).defaultPrevented).toBe(false);
    const box = document.createElement('textarea');
    document.body.append(box);
    expect(press({ key: '?' }, box).defaultPrevented).toBe(false);
    box.remove();
    expect(takeFirstPaintShortcut()).toBe('commands');
    expect(takeFirstPaintShortcut()).toBeNull();
    // The console listens from then on: the first paint's listener lets every key through.
    expect(press({ key: 'K', metaKey: true }).defaultPrevented).toBe(false);
    expect(takeFirstPaintShortcut()).toBeNull();
  });
});

describe('whether the first paint is over the page', () => {
  // The page's global object holds the dismissal (shared by the script and the console), and
  // the spec files of a run share it: as a page that was never dismissed, then as it was.
  const dismissed = Symbol.for('relais.first-paint-dismissed');
  const shared = globalThis as Record<symbol, unknown>;
  let before: unknown;
  beforeEach(() => {
    before = shared[dismissed];
    delete shared[dismissed];
  });
  afterEach(() => (shared[dismissed] = before));

  it('is while its element is there, and never again once the console dismissed it', () => {
    const doc = document.implementation.createHTMLDocument('page');
    expect(firstPaintShown(doc)).toBe(false);
    const paint = doc.createElement('div');
    paint.id = FIRST_PAINT_ID;
    doc.body.append(paint);
    expect(firstPaintShown(doc)).toBe(true);
    dismissFirstPaint(doc);
    expect(firstPaintShown(doc)).toBe(false);
    // A first paint arriving later stays away (dismissFirstPaint), and does not count as shown.
    doc.body.append(paint);
    expect(firstPaintShown(doc)).toBe(false);
  });
});
