import { fuzzyFilter, fuzzyMatch } from './fuzzy';

describe('fuzzy search', () => {
  it('matches characters in order, case-insensitively', () => {
    expect(fuzzyMatch('inb', 'Open the Inbox')).not.toBeNull();
    expect(fuzzyMatch('xyz', 'Open the Inbox')).toBeNull();
    expect(fuzzyMatch('bni', 'Inbox')).toBeNull();
  });

  it('an empty query matches everything with score 0', () => {
    expect(fuzzyMatch('  ', 'anything')).toEqual({ score: 0, positions: [] });
  });

  it('ranks contiguous and word-start matches first', () => {
    const items = ['Toggle theme', 'Go to turn 3', 'Launch a session', 'Jump to tool Bash'];
    expect(fuzzyFilter('turn', items, (s) => s)[0]).toBe('Go to turn 3');
    expect(fuzzyFilter('tt', items, (s) => s)[0]).toBe('Toggle theme');
    expect(fuzzyFilter('launch', items, (s) => s)).toEqual(['Launch a session']);
  });

  it('keeps the original order for an empty query', () => {
    expect(fuzzyFilter('', ['b', 'a'], (s) => s)).toEqual(['b', 'a']);
  });

  it('ignores spaces between words of the query', () => {
    expect(fuzzyMatch('tool bash', 'Jump to tool Bash')).not.toBeNull();
  });
});
