import {
  FIRST_PAINT_COMPOSER_ID,
  FIRST_PAINT_ID,
  dismissFirstPaint,
  firstPaintShown,
  firstPaintTypingPause,
  holdShortcuts,
  noteFirstPaintKey,
  noteFirstPaintInput,
  noteFirstPaintSent,
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

describe("the console's start while the person types in the first paint", () => {
  afterEach(() => vi.useRealTimers());

  it('goes on at once when nobody typed, or once the keys have paused, or at the latest after its limit', async () => {
    vi.useFakeTimers();
    let clock = 10_000;
    const now = () => clock;
    const resolved = (promise: Promise<void>) => {
      let done = false;
      void promise.then(() => (done = true));
      return () => done;
    };
    // Nobody typed (or long ago): at once.
    noteFirstPaintKey(clock - 5_000);
    const idle = resolved(firstPaintTypingPause(200, 2000, now));
    await vi.advanceTimersByTimeAsync(0);
    expect(idle()).toBe(true);

    // A key 50 ms ago: 150 ms more of quiet.
    noteFirstPaintKey(clock - 50);
    const paused = resolved(firstPaintTypingPause(200, 2000, now));
    clock += 100;
    await vi.advanceTimersByTimeAsync(100);
    expect(paused()).toBe(false);
    clock += 60;
    await vi.advanceTimersByTimeAsync(60);
    expect(paused()).toBe(true);

    // Typing on and on: no later than the limit.
    noteFirstPaintKey(clock);
    const typing = resolved(firstPaintTypingPause(200, 2000, now));
    for (let ms = 0; ms < 1900; ms += 100) {
      noteFirstPaintKey(clock);
      clock += 100;
      await vi.advanceTimersByTimeAsync(100);
    }
    expect(typing()).toBe(false);
    noteFirstPaintKey(clock);
    clock += 150;
    await vi.advanceTimersByTimeAsync(150);
    expect(typing()).toBe(true);
  });

  it('holds while the box holds text not sent yet (an Enter may come any moment), up to its limit', async () => {
    vi.useFakeTimers();
    let clock = 50_000;
    const now = () => clock;
    const box = document.createElement('textarea');
    box.id = FIRST_PAINT_COMPOSER_ID;
    document.body.append(box);
    try {
      box.value = 'fix the';
      noteFirstPaintInput();
      noteFirstPaintKey(clock - 1_000);
      let done = false;
      void firstPaintTypingPause(200, 2000, now).then(() => (done = true));
      clock += 1_000;
      await vi.advanceTimersByTimeAsync(1_000);
      expect(done).toBe(false);
      // Sent (Enter empties the box): the console goes on at once, not after the keys' pause.
      noteFirstPaintKey(clock);
      box.value = '';
      noteFirstPaintSent();
      clock += 50;
      await vi.advanceTimersByTimeAsync(50);
      expect(done).toBe(true);

      // A refused text put back (after its send) is not being typed: at once.
      box.value = 'refused';
      let back = false;
      void firstPaintTypingPause(200, 2000, now).then(() => (back = true));
      await vi.advanceTimersByTimeAsync(0);
      expect(back).toBe(true);

      // Text typed and left there: no later than the limit.
      noteFirstPaintInput();
      box.value = 'left here';
      let late = false;
      void firstPaintTypingPause(200, 2000, now).then(() => (late = true));
      clock += 1_900;
      await vi.advanceTimersByTimeAsync(1_900);
      expect(late).toBe(false);
      clock += 150;
      await vi.advanceTimersByTimeAsync(150);
      expect(late).toBe(true);
    } finally {
      box.remove();
    }
  });
});
