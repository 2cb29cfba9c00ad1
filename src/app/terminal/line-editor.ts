/** What the keys typed into the terminal did: text to echo, lines typed, Ctrl-C or Ctrl-D. */
export type EditorAction =
  | { kind: 'echo'; text: string }
  | { kind: 'line'; text: string }
  | { kind: 'ctrl-c' }
  | { kind: 'ctrl-d' };

/** Erases the current screen line and puts the cursor at its start. */
export const CLEAR_LINE = '\r\x1b[2K';

/**
 * The one line being typed in the browser terminal: xterm.js hands over raw key data (typed
 * characters, pastes, control keys, escape sequences); this keeps the line and says what to echo.
 * The cursor stays at the end: arrows and other escape sequences are ignored.
 */
export class LineEditor {
  private text = '';

  get current(): string {
    return this.text;
  }

  /** Forgets the line (after Ctrl-C), returning the echo that erases it. */
  clear(prompt: string): string {
    this.text = '';
    return `${CLEAR_LINE}${prompt}`;
  }

  feed(data: string): EditorAction[] {
    const actions: EditorAction[] = [];
    let echo = '';
    const flush = () => {
      if (echo) actions.push({ kind: 'echo', text: echo });
      echo = '';
    };
    // Escape sequences (arrows, function keys, focus reports) move nothing here.
    const plain = data.replace(/\x1b(?:\[[0-9;?]*[ -/]*[@-~]|O.|.)?/g, '');
    for (const char of plain.replace(/\r\n?/g, '\r').replace(/\n/g, '\r')) {
      if (char === '\r') {
        flush();
        actions.push({ kind: 'line', text: this.text });
        this.text = '';
      } else if (char === '\x7f' || char === '\b') {
        if (this.text) {
          this.text = [...this.text].slice(0, -1).join('');
          echo += '\b \b';
        }
      } else if (char === '\x03') {
        flush();
        actions.push({ kind: 'ctrl-c' });
      } else if (char === '\x04') {
        flush();
        if (!this.text) actions.push({ kind: 'ctrl-d' });
      } else if (char === '\x15') {
        echo += '\b \b'.repeat([...this.text].length);
        this.text = '';
      } else if (char >= ' ' && char !== '\x7f' && !/[\u0080-\u009f]/.test(char)) {
        this.text += char;
        echo += char;
      }
    }
    flush();
    return actions;
  }
}
