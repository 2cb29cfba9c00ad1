import { holdShortcuts, takeFirstPaintShortcut } from './handoff';

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
