import { diffRows, patchOf, textHunks } from './diff-model';

describe('diff model', () => {
  // What Claude Code 2.1.332 returned for `demo:edit notes.txt line three => line 3\nline 3b`.
  const claudeEdit = {
    filePath: '/w/notes.txt',
    oldString: 'line three',
    newString: 'line 3\nline 3b',
    structuredPatch: [
      {
        oldStart: 8,
        oldLines: 5,
        newStart: 8,
        newLines: 6,
        lines: [' six', ' seven', '-line three', '+line 3', '+line 3b', ' nine', ' ten'],
      },
      {
        oldStart: 40,
        oldLines: 2,
        newStart: 41,
        newLines: 1,
        lines: [' end', '-tail', '\\ No newline at end of file', '+tail2'],
      },
    ],
    userModified: false,
  };

  it('reads the structured patch from a tool result, and nothing from other shapes', () => {
    expect(patchOf(claudeEdit)?.length).toBe(2);
    expect(patchOf({ type: 'create', structuredPatch: [] })).toBe(null);
    expect(patchOf('Error: refused')).toBe(null);
    expect(patchOf({ structuredPatch: [{ oldStart: 'x' }] })).toBe(null);
    expect(patchOf(null)).toBe(null);
  });

  it('numbers each line on its side, with a gap row between distant hunks', () => {
    const rows = diffRows(patchOf(claudeEdit)!);
    expect(rows.map((r) => [r.kind, r.oldNo, r.newNo, r.text])).toEqual([
      ['gap', null, null, '@@ line 8 @@'],
      ['ctx', 8, 8, 'six'],
      ['ctx', 9, 9, 'seven'],
      ['del', 10, null, 'line three'],
      ['add', null, 10, 'line 3'],
      ['add', null, 11, 'line 3b'],
      ['ctx', 11, 12, 'nine'],
      ['ctx', 12, 13, 'ten'],
      ['gap', null, null, '@@ line 40 @@'],
      ['ctx', 40, 41, 'end'],
      ['del', 41, null, 'tail'],
      ['note', null, null, 'No newline at end of file'],
      ['add', null, 42, 'tail2'],
    ]);
  });

  it('diffs two texts by lines, keeping unchanged lines as context (not all removed then all added)', () => {
    const hunks = textHunks('a\nb\nc\nd\n', 'a\nB\nc\nd\ne\n');
    const rows = diffRows(hunks, false);
    expect(rows.map((r) => `${r.kind}:${r.text}`)).toEqual([
      'ctx:a',
      'del:b',
      'add:B',
      'ctx:c',
      'ctx:d',
      'add:e',
    ]);
    expect(rows.every((r) => r.oldNo === null && r.newNo === null)).toBe(true);
  });

  it('gives no hunks for identical texts, and one side only for a pure insertion', () => {
    expect(textHunks('same', 'same')).toEqual([]);
    const rows = diffRows(textHunks('', 'new line'));
    expect(rows.filter((r) => r.kind === 'add').map((r) => [r.newNo, r.text])).toEqual([
      [1, 'new line'],
    ]);
    expect(rows.some((r) => r.kind === 'del')).toBe(false);
  });
});
