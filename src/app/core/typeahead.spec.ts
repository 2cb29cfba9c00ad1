import { Typeahead } from './typeahead';

const key = (key: string, init: KeyboardEventInit = {}) =>
  new KeyboardEvent('keydown', { key, cancelable: true, ...init });

describe('Typeahead', () => {
  it('keeps nothing until started', () => {
    const typeahead = new Typeahead();
    const event = key('a');
    expect(typeahead.capture(event)).toBe(false);
    expect(event.defaultPrevented).toBe(false);
    expect(typeahead.take()).toBe('');
  });

  it('keeps the characters typed after start, with Backspace, and stops on take', () => {
    const typeahead = new Typeahead();
    typeahead.start();
    for (const k of ['S', 'e', 's', 'x', 'Backspace', 's'])
      expect(typeahead.capture(key(k))).toBe(true);
    expect(typeahead.capture(key('ArrowDown'))).toBe(false);
    expect(typeahead.capture(key('k', { ctrlKey: true }))).toBe(false);
    expect(typeahead.take()).toBe('Sess');
    expect(typeahead.capture(key('a'))).toBe(false);
  });

  it('a second start while keeping does not forget what was typed', () => {
    const typeahead = new Typeahead();
    typeahead.start();
    typeahead.capture(key('a'));
    typeahead.start();
    expect(typeahead.take()).toBe('a');
  });
});
