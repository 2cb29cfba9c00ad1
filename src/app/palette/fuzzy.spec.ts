import { fuzzyFilter, fuzzyMatch } from './fuzzy';

interface Item {
  label: string;
  group: string;
  keywords?: string;
}

/** Labels as the palette shows them on a conversation page. */
const COMMANDS: Item[] = [
  { label: 'Stop this session', group: 'Conversation' },
  { label: 'Interrupt the running turn', group: 'Conversation' },
  { label: 'Extend the lifetime by 30 minutes', group: 'Conversation', keywords: 'heartbeat ttl' },
  { label: 'Go to turn 3: rename the version field', group: 'Turns' },
  { label: 'Open Diagnostics', group: 'Pages', keywords: 'health engine versions' },
  { label: 'Show agent versions', group: 'Diagnostics', keywords: 'claude codex' },
  { label: 'Toggle light / dark theme', group: 'Actions', keywords: 'dark light' },
  { label: 'Open Analytics', group: 'Pages', keywords: 'usage cost tokens charts' },
  { label: 'Open the audit trail', group: 'Pages', keywords: 'decisions history' },
  { label: 'Launch a session', group: 'Actions', keywords: 'new start' },
];
const fields = (item: Item) => [item.label, item.group, item.keywords ?? ''];
const labels = (query: string) => fuzzyFilter(query, COMMANDS, fields).map((item) => item.label);

describe('fuzzy search', () => {
  it('does not find words whose letters are only scattered inside other words', () => {
    expect(fuzzyMatch('version', 'Stop this session')).toBeNull();
    expect(labels('version')).not.toContain('Stop this session');
    expect(fuzzyMatch('bni', 'Inbox')).toBeNull();
    expect(fuzzyMatch('xyz', 'Open the Inbox')).toBeNull();
  });

  it('ranks a label that says the word before one that only has it in its keywords', () => {
    const found = labels('version');
    expect(found.slice(0, 2).sort()).toEqual([
      'Go to turn 3: rename the version field',
      'Show agent versions',
    ]);
    expect(found.slice(2)).toEqual(['Open Diagnostics']);
  });

  it('matches case-insensitively, at word starts, and in camelCase humps', () => {
    expect(fuzzyMatch('inb', 'Open the Inbox')?.positions).toEqual([9, 10, 11]);
    expect(fuzzyMatch('api', 'openApiSpec')).not.toBeNull();
  });

  it('matches a run of word prefixes (initials, abbreviations)', () => {
    expect(labels('tt')[0]).toBe('Toggle light / dark theme');
    expect(labels('ldt')[0]).toBe('Toggle light / dark theme');
    expect(labels('int run')[0]).toBe('Interrupt the running turn');
    expect(fuzzyMatch('togth', 'Toggle theme')?.positions).toEqual([0, 1, 2, 7, 8]);
  });

  it('finds a piece inside a word only when the piece is long enough', () => {
    expect(fuzzyMatch('ion', 'Stop this session')).not.toBeNull();
    expect(fuzzyMatch('on', 'Stop this session')).toBeNull();
  });

  it('needs every word of the query, in any order', () => {
    expect(labels('turn interrupt')).toEqual(['Interrupt the running turn']);
    expect(labels('session zebra')).toEqual([]);
  });

  it('puts an exact word at the start first', () => {
    expect(labels('launch')).toEqual(['Launch a session']);
    expect(labels('an')[0]).toBe('Open Analytics');
    expect(labels('audit')[0]).toBe('Open the audit trail');
  });

  it('an empty query matches everything and keeps the original order', () => {
    expect(fuzzyMatch('  ', 'anything')).toEqual({ score: 0, positions: [] });
    expect(fuzzyFilter('', ['b', 'a'], (s) => s)).toEqual(['b', 'a']);
  });

  it('survives odd input', () => {
    expect(fuzzyMatch('(.*', 'Open (.*) regex')).not.toBeNull();
    expect(fuzzyMatch('café', 'Le Café ouvert')?.positions).toEqual([3, 4, 5, 6]);
    const long = 'a'.repeat(5000);
    expect(fuzzyMatch(long, 'a short label')).toBeNull();
    expect(fuzzyMatch('abcdefghij', 'a b c d e f g h i j '.repeat(20))).not.toBeNull();
  });
});
