import {
  REDIRECT_RE,
  findBacktick,
  findClosingBrace,
  findClosingParen,
  operatorLength,
  readAnsiC,
  skipDoubleQuoted,
} from './shell-scan.js';

/**
 * A best-effort reading of a bash command line: simple commands split on && || ; | & ( ) and newlines,
 * words after quote removal, redirections, and the inner commands of $(…), `…`, <(…), >(…) (flattened).
 * It never executes anything and never throws on malformed input (it flags it `incomplete`).
 */

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

export const REDIRECT_OPS = ['>', '>>', '>|', '<', '<>', '<<', '<<-', '<<<', '>&', '<&', '&>', '&>>'] as const;
export type RedirectOp = (typeof REDIRECT_OPS)[number];

export interface ShellRedirect {
  op: RedirectOp;
  /** The file named by the redirection; null for here-documents, here-strings and fd duplications. */
  target: ShellWord | null;
}

export interface SimpleCommand {
  words: ShellWord[];
  redirects: ShellRedirect[];
  /** The source text of this simple command (for the rules' regular expressions). */
  text: string;
}

export interface ParsedShell {
  commands: SimpleCommand[];
  /** Unbalanced quotes or substitutions, or nesting too deep: the reading is partial. */
  incomplete: boolean;
}

const MAX_DEPTH = 6;
const WORD_BREAK = new Set([' ', '\t', '\r', '\n', ';', '&', '|', '(', ')', '<', '>']);

interface WordBuilder {
  text: string;
  prefix: string | null;
  dynamic: boolean;
  glob: boolean;
}

export function parseShell(src: string, home: string, depth = 0): ParsedShell {
  const parser = new ShellParser(src, home, depth);
  parser.run();
  return { commands: parser.commands, incomplete: parser.incomplete };
}

class ShellParser {
  readonly commands: SimpleCommand[] = [];
  incomplete = false;
  private i = 0;
  private words: ShellWord[] = [];
  private redirects: ShellRedirect[] = [];
  private cmdStart = -1;
  private cmdEnd = -1;
  private heredocs: { delim: string; stripTabs: boolean }[] = [];

  constructor(
    private readonly src: string,
    private readonly home: string,
    private readonly depth: number,
  ) {}

  run(): void {
    const s = this.src;
    while (this.i < s.length) {
      const c = s[this.i];
      if (c === ' ' || c === '\t' || c === '\r') {
        this.i += 1;
      } else if (c === '\\' && s[this.i + 1] === '\n') {
        this.i += 2;
      } else if (c === '\n') {
        this.endCommand();
        this.i += 1;
        this.skipHeredocBodies();
      } else if (c === '#') {
        while (this.i < s.length && s[this.i] !== '\n') this.i += 1;
      } else if ((c === '<' || c === '>') && s[this.i + 1] === '(') {
        this.addWord(this.readWord());
      } else if (this.tryRedirect()) {
        // consumed
      } else if (c === ';' || c === '&' || c === '|' || c === '(' || c === ')') {
        this.endCommand();
        this.i += operatorLength(s, this.i);
      } else {
        this.addWord(this.readWord());
      }
    }
    this.endCommand();
  }

  private mark(start: number): void {
    if (this.cmdStart < 0) this.cmdStart = start;
    this.cmdEnd = this.i;
  }

  private addWord(word: ShellWord): void {
    this.words.push(word);
  }

  private endCommand(): void {
    if (this.words.length > 0 || this.redirects.length > 0) {
      this.commands.push({ words: this.words, redirects: this.redirects, text: this.src.slice(this.cmdStart, this.cmdEnd) });
    }
    this.words = [];
    this.redirects = [];
    this.cmdStart = -1;
    this.cmdEnd = -1;
  }

  private tryRedirect(): boolean {
    REDIRECT_RE.lastIndex = this.i;
    const m = REDIRECT_RE.exec(this.src);
    if (!m) return false;
    const start = this.i;
    const op = m[2] as RedirectOp;
    this.i += m[0].length;
    while (this.src[this.i] === ' ' || this.src[this.i] === '\t') this.i += 1;
    const next = this.src[this.i];
    if (next === undefined || (WORD_BREAK.has(next) && !((next === '<' || next === '>') && this.src[this.i + 1] === '('))) {
      this.incomplete = true;
      this.mark(start);
      return true;
    }
    const word = this.readWord();
    this.mark(start);
    if (op === '<<' || op === '<<-') {
      this.heredocs.push({ delim: word.text, stripTabs: op === '<<-' });
      this.redirects.push({ op, target: null });
    } else if (op === '<<<' || ((op === '>&' || op === '<&') && /^(\d+-?|-)$/.test(word.text))) {
      this.redirects.push({ op, target: null });
    } else {
      this.redirects.push({ op, target: word });
    }
    return true;
  }

  private skipHeredocBodies(): void {
    const s = this.src;
    for (const doc of this.heredocs) {
      while (this.i < s.length) {
        const nl = s.indexOf('\n', this.i);
        const end = nl < 0 ? s.length : nl;
        const line = s.slice(this.i, end);
        this.i = nl < 0 ? s.length : nl + 1;
        if ((doc.stripTabs ? line.replace(/^\t+/, '') : line) === doc.delim) break;
      }
    }
    this.heredocs = [];
  }

  private readWord(): ShellWord {
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
      } else if (c === '*' || c === '?' || c === '[' || ((c === '{' || c === '}') && !this.standaloneBrace())) {
        unknown(w, 'glob');
        w.text += c;
        this.i += 1;
      } else {
        w.text += c;
        this.i += 1;
      }
    }
    this.mark(start);
    return { text: w.text, staticPrefix: w.prefix ?? w.text, dynamic: w.dynamic, glob: w.glob };
  }

  private standaloneBrace(): boolean {
    const before = this.src[this.i - 1];
    const after = this.src[this.i + 1];
    const blank = (ch: string | undefined): boolean => ch === undefined || WORD_BREAK.has(ch);
    return blank(before) && blank(after);
  }

  private readTilde(w: WordBuilder): void {
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

  private readDoubleQuoted(w: WordBuilder): void {
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

  private readDollar(w: WordBuilder): void {
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

  private variable(w: WordBuilder, name: string): void {
    if (name === 'HOME') w.text += this.home;
    else unknown(w, 'dynamic');
  }

  /** Parses the inner text of $(…), `…`, <(…) or >(…) as commands of their own; the word's value is unknown. */
  private substitution(w: WordBuilder, innerStart: number, close: number): void {
    unknown(w, 'dynamic');
    if (close < 0) {
      this.incomplete = true;
      this.i = this.src.length;
      return;
    }
    const inner = this.src.slice(innerStart, close);
    this.i = close + 1;
    if (this.depth + 1 > MAX_DEPTH) {
      this.incomplete = true;
      return;
    }
    const nested = parseShell(inner, this.home, this.depth + 1);
    if (nested.incomplete) this.incomplete = true;
    this.commands.push(...nested.commands);
  }
}

function unknown(w: WordBuilder, kind: 'glob' | 'dynamic'): void {
  if (w.prefix === null) w.prefix = w.text;
  if (kind === 'glob') w.glob = true;
  else w.dynamic = true;
}
