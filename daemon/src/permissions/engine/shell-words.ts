import { findBacktick, findClosingBrace, findClosingParen, readAnsiC } from './shell-scan.js';

/** Reading one shell word: quotes, escapes, $HOME and ~, and the substitutions it contains. */

export interface ShellWord {
  /** Value after quote removal and the expansions the text can tell ($HOME, ${HOME}, ~). */
  text: string;
  /** `text` up to the first part the text cannot tell (a variable, a substitution, a wildcard). */
  staticPrefix: string;
  /** Contains an expansion whose value is unknown. */
  dynamic: boolean;
  /** Contains an unquoted wildcard or brace expansion. */
  glob: boolean;
}

export const WORD_BREAK: ReadonlySet<string> = new Set([
  ' ',
  '\t',
  '\r',
  '\n',
  ';',
  '&',
  '|',
  '(',
  ')',
  '<',
  '>',
]);

interface WordBuilder {
  text: string;
  prefix: string | null;
  dynamic: boolean;
  glob: boolean;
}

export abstract class WordReader {
  incomplete = false;
  protected i = 0;

  constructor(
    protected readonly src: string,
    protected readonly home: string,
  ) {}

  /** Called with the inner text of $(…), `…`, <(…) or >(…). */
  protected abstract nested(inner: string): void;

  protected readWord(): ShellWord {
    const s = this.src;
    const start = this.i;
    const w: WordBuilder = { text: '', prefix: null, dynamic: false, glob: false };
    while (this.i < s.length) {
      const c = s[this.i];
      if ((c === '<' || c === '>') && s[this.i + 1] === '(') {
        this.substitution(w, this.i + 2, findClosingParen(s, this.i + 2));
        continue;
      }
      if (WORD_BREAK.has(c)) break;
      if (c === '\\') {
        if (s[this.i + 1] !== '\n') w.text += s[this.i + 1] ?? '';
        this.i += 2;
      } else if (c === "'") {
        const end = s.indexOf("'", this.i + 1);
        if (end < 0) {
          this.incomplete = true;
          w.text += s.slice(this.i + 1);
          this.i = s.length;
        } else {
          w.text += s.slice(this.i + 1, end);
          this.i = end + 1;
        }
      } else if (c === '"') {
        this.readDoubleQuoted(w);
      } else if (c === '$') {
        this.readDollar(w);
      } else if (c === '`') {
        this.substitution(w, this.i + 1, findBacktick(s, this.i + 1));
      } else if (c === '~' && this.i === start) {
        this.readTilde(w);
      } else if (c === '{' && s[this.i + 1] === '}') {
        w.text += '{}';
        this.i += 2;
      } else if (
        c === '*' ||
        c === '?' ||
        c === '[' ||
        ((c === '{' || c === '}') && !this.standaloneBrace())
      ) {
        unknown(w, 'glob');
        w.text += c;
        this.i += 1;
      } else {
        w.text += c;
        this.i += 1;
      }
    }
    return { text: w.text, staticPrefix: w.prefix ?? w.text, dynamic: w.dynamic, glob: w.glob };
  }

  protected standaloneBrace(): boolean {
    const before = this.src[this.i - 1];
    const after = this.src[this.i + 1];
    const blank = (ch: string | undefined): boolean => ch === undefined || WORD_BREAK.has(ch);
    return blank(before) && blank(after);
  }

  protected readTilde(w: WordBuilder): void {
    const s = this.src;
    let j = this.i + 1;
    while (j < s.length && !WORD_BREAK.has(s[j]) && s[j] !== '/') j += 1;
    if (j === this.i + 1) {
      w.text += this.home;
    } else {
      unknown(w, 'dynamic');
      w.text += s.slice(this.i, j);
    }
    this.i = j;
  }

  protected readDoubleQuoted(w: WordBuilder): void {
    const s = this.src;
    this.i += 1;
    while (this.i < s.length && s[this.i] !== '"') {
      const c = s[this.i];
      if (c === '\\') {
        const next = s[this.i + 1] ?? '';
        if (next === '\n') {
          // line continuation: removed
        } else if ('$`"\\'.includes(next)) {
          w.text += next;
        } else {
          w.text += `\\${next}`;
        }
        this.i += 2;
      } else if (c === '$') {
        this.readDollar(w);
      } else if (c === '`') {
        this.substitution(w, this.i + 1, findBacktick(s, this.i + 1));
      } else {
        w.text += c;
        this.i += 1;
      }
    }
    if (this.i >= s.length) this.incomplete = true;
    this.i += 1;
  }

  protected readDollar(w: WordBuilder): void {
    const s = this.src;
    const next = s[this.i + 1];
    if (next === "'") {
      const ansi = readAnsiC(s, this.i + 2);
      if (!ansi) {
        this.incomplete = true;
        this.i = s.length;
        return;
      }
      w.text += ansi.value;
      this.i = ansi.end;
    } else if (next === '(' && s[this.i + 2] === '(') {
      const close = findClosingParen(s, this.i + 2);
      unknown(w, 'dynamic');
      this.i = close < 0 ? s.length : close + 1;
      if (close < 0) this.incomplete = true;
    } else if (next === '(') {
      this.substitution(w, this.i + 2, findClosingParen(s, this.i + 2));
    } else if (next === '{') {
      const close = findClosingBrace(s, this.i + 2);
      if (close < 0) {
        this.incomplete = true;
        unknown(w, 'dynamic');
        this.i = s.length;
        return;
      }
      this.variable(w, s.slice(this.i + 2, close));
      this.i = close + 1;
    } else if (next !== undefined && /[A-Za-z_]/.test(next)) {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(s.slice(this.i + 1))?.[0] ?? '';
      this.variable(w, name);
      this.i += 1 + name.length;
    } else if (next !== undefined && /[0-9@*#?$!-]/.test(next)) {
      unknown(w, 'dynamic');
      this.i += 2;
    } else {
      w.text += '$';
      this.i += 1;
    }
  }

  protected variable(w: WordBuilder, name: string): void {
    if (name === 'HOME') w.text += this.home;
    else unknown(w, 'dynamic');
  }

  /** Parses the inner text of $(…), `…`, <(…) or >(…) as commands of their own; the word's value is unknown. */
  protected substitution(w: WordBuilder, innerStart: number, close: number): void {
    unknown(w, 'dynamic');
    if (close < 0) {
      this.incomplete = true;
      this.i = this.src.length;
      return;
    }
    this.i = close + 1;
    this.nested(this.src.slice(innerStart, close));
  }
}

function unknown(w: WordBuilder, kind: 'glob' | 'dynamic'): void {
  if (w.prefix === null) w.prefix = w.text;
  if (kind === 'glob') w.glob = true;
  else w.dynamic = true;
}
