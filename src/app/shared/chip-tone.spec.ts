import { chipClasses } from './chip-tone';

describe('chipClasses', () => {
  it('gives the same word the same tone on every page, and an unknown word a neutral one', () => {
    expect(chipClasses('deny')).toBe('chip tone-error');
    expect(chipClasses('ask')).toBe('chip tone-tertiary');
    expect(chipClasses('allow')).toBe('chip tone-primary');
    expect(chipClasses('compressed')).toBe('chip tone-secondary');
    expect(chipClasses('maybe')).toBe('chip tone-neutral');
  });
});
