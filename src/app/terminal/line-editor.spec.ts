import { LineEditor } from './line-editor';

describe('LineEditor', () => {
  it('echoes typed characters and hands over the line on Enter', () => {
    const editor = new LineEditor();
    expect(editor.feed('hi')).toEqual([{ kind: 'echo', text: 'hi' }]);
    expect(editor.feed('!\r')).toEqual([
      { kind: 'echo', text: '!' },
      { kind: 'line', text: 'hi!' },
    ]);
    expect(editor.current).toBe('');
  });

  it('erases with Backspace and Ctrl-U, a whole character at a time', () => {
    const editor = new LineEditor();
    editor.feed('a😀');
    expect(editor.feed('\x7f')).toEqual([{ kind: 'echo', text: '\b \b' }]);
    expect(editor.current).toBe('a');
    editor.feed('bc');
    editor.feed('\x15');
    expect(editor.current).toBe('');
    expect(editor.feed('\x7f')).toEqual([]);
  });

  it('splits a pasted block into lines, and drops escape sequences and controls', () => {
    const editor = new LineEditor();
    const actions = editor.feed('one\r\ntwo\x1b[A\x1b[1;5C\x07\nthr');
    expect(actions.filter((a) => a.kind === 'line')).toEqual([
      { kind: 'line', text: 'one' },
      { kind: 'line', text: 'two' },
    ]);
    expect(editor.current).toBe('thr');
  });

  it('reports Ctrl-C always, and Ctrl-D only on an empty line', () => {
    const editor = new LineEditor();
    expect(editor.feed('\x03')).toEqual([{ kind: 'ctrl-c' }]);
    expect(editor.feed('\x04')).toEqual([{ kind: 'ctrl-d' }]);
    editor.feed('x');
    expect(editor.feed('\x04')).toEqual([]);
    expect(editor.clear('idle ▸ ')).toBe('\r\x1b[2Kidle ▸ ');
    expect(editor.current).toBe('');
  });
});
