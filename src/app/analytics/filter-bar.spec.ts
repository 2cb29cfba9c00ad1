import { importedChoice } from './filter-bar';

describe('importedChoice', () => {
  it('reads the app filter as including, excluding or keeping only imported turns', () => {
    expect(importedChoice([])).toBe('include');
    expect(importedChoice(['imported'])).toBe('only');
    expect(importedChoice(['console', 'ci'])).toBe('exclude');
    expect(importedChoice(['console', 'imported'])).toBe('include');
  });
});
