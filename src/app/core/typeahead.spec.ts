import { Typeahead, TYPEAHEAD_MAX_MS } from './typeahead';

const key = (key: string, init: KeyboardEventInit = {}) =>
  new KeyboardEvent('keydown', { key, cancelable: true, ...init });

describe('Typeahead', () => {
  it('keeps nothing until started', () => {
    const typeahead = new Typeahead();
    const event = key('a');
    expect(typeahead.capture(event)).toBe(false);
    expect(event.defaultPrevented).toBe(false);
    expect(typeahead.take()).toEqual({ text: '', end: null });
  });

  it('keeps the characters typed after start, with Backspace, and stops on take', () => {
    const typeahead = new Typeahead();
    typeahead.start();
    for (const k of ['S', 'e', 's', 'x', 'Backspace', 's'])
      expect(typeahead.capture(key(k))).toBe(true);
    expect(typeahead.capture(key('ArrowDown'))).toBe(false);
    expect(typeahead.capture(key('k', { ctrlKey: true }))).toBe(false);
    expect(typeahead.take()).toEqual({ text: 'Sess', end: null });
    expect(typeahead.capture(key('a'))).toBe(false);
  });

  it('a second start while keeping does not forget what was typed', () => {
    const typeahead = new Typeahead();
    typeahead.start();
    typeahead.capture(key('a'));
    typeahead.start();
    expect(typeahead.take().text).toBe('a');
  });

  it('Enter or Escape ends the typing: kept, and the keys after it are left to the page', () => {
    for (const end of ['Enter', 'Escape'] as const) {
      const typeahead = new Typeahead();
      typeahead.start();
      typeahead.capture(key('g'));
      const ending = key(end);
      expect(typeahead.capture(ending)).toBe(true);
      expect(ending.defaultPrevented).toBe(true);
      const after = key('x');
      expect(typeahead.capture(after)).toBe(false);
      expect(after.defaultPrevented).toBe(false);
      expect(typeahead.take()).toEqual({ text: 'g', end: end === 'Enter' ? 'enter' : 'escape' });
    }
  });

  it('a new start after take forgets the last ending', () => {
    const typeahead = new Typeahead();
    typeahead.start();
    typeahead.capture(key('Enter'));
    typeahead.take();
    typeahead.start();
    expect(typeahead.take()).toEqual({ text: '', end: null });
  });

  it('gives the keys back to the page when nothing took them in time', () => {
    let now = 1_000;
    const typeahead = new Typeahead();
    typeahead.now = () => now;
    typeahead.start();
    expect(typeahead.capture(key('a'))).toBe(true);
    now += TYPEAHEAD_MAX_MS + 1;
    const late = key('b');
    expect(typeahead.capture(late)).toBe(false);
    expect(late.defaultPrevented).toBe(false);
    expect(typeahead.take()).toEqual({ text: '', end: null });
    typeahead.start();
    expect(typeahead.capture(key('c'))).toBe(true);
    expect(typeahead.take().text).toBe('c');
  });
});
