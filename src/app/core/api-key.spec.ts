import { keyFromFragment } from './api-key';

describe('keyFromFragment', () => {
  it('reads the key from the URL fragment', () => {
    expect(keyFromFragment('#key=abc_DEF-123')).toBe('abc_DEF-123');
    expect(keyFromFragment('#other=1&key=xyz')).toBe('xyz');
  });

  it('is null without a key', () => {
    expect(keyFromFragment('')).toBeNull();
    expect(keyFromFragment('#key=')).toBeNull();
  });
});
