import { deliveryFor, keyboardMove, moveItem } from './queue-order';

describe('queue ordering', () => {
  it('moves an entry up and down without mutating the input', () => {
    const ids = ['a', 'b', 'c'];
    expect(moveItem(ids, 2, 0)).toEqual(['c', 'a', 'b']);
    expect(moveItem(ids, 0, 1)).toEqual(['b', 'a', 'c']);
    expect(ids).toEqual(['a', 'b', 'c']);
  });

  it('clamps targets and ignores bad sources', () => {
    expect(moveItem(['a', 'b'], 0, 9)).toEqual(['b', 'a']);
    expect(moveItem(['a', 'b'], 5, 0)).toEqual(['a', 'b']);
  });

  it('maps Alt+arrows to a neighbouring position, within bounds', () => {
    expect(keyboardMove('ArrowUp', true, 1, 3)).toBe(0);
    expect(keyboardMove('ArrowDown', true, 1, 3)).toBe(2);
    expect(keyboardMove('ArrowUp', true, 0, 3)).toBeNull();
    expect(keyboardMove('ArrowDown', true, 2, 3)).toBeNull();
    expect(keyboardMove('ArrowDown', false, 0, 3)).toBeNull();
  });

  it('tells whether a message is sent now or queued', () => {
    expect(deliveryFor('idle', 0)).toBe('now');
    expect(deliveryFor('idle', 2)).toBe('queued');
    expect(deliveryFor('working', 0)).toBe('queued');
    expect(deliveryFor('waiting', 0)).toBe('queued');
    expect(deliveryFor('ended', 0)).toBe('closed');
  });
});
