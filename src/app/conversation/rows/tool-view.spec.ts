import { isLong, lineCount } from './tool-view';

describe('tool output sizes', () => {
  it('counts lines as splitting on line breaks would, without splitting', () => {
    for (const text of ['', 'one', 'one\n', '\n\n', 'a\nb\nc', 'a\r\nb', '\nlead'])
      expect(lineCount(text), JSON.stringify(text)).toBe(text.split('\n').length);
  });

  it('a text is long past 800 characters or 12 lines', () => {
    expect(isLong(null)).toBe(false);
    expect(isLong('')).toBe(false);
    expect(isLong('x'.repeat(800))).toBe(false);
    expect(isLong('x'.repeat(801))).toBe(true);
    expect(isLong(Array(12).fill('l').join('\n'))).toBe(false);
    expect(isLong(Array(13).fill('l').join('\n'))).toBe(true);
  });
});
