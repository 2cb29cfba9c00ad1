import { REDIRECT_RE, operatorLength } from './shell-scan.js';
import { WORD_BREAK, WordReader, type ShellWord } from './shell-words.js';

export type { ShellWord } from './shell-words.js';

/**
 * A best-effort reading of a bash command line: simple commands split on && || ; | & ( ) and newlines,
 * words after quote removal, redirections, and the inner commands of $(…), `…`, <(…), >(…) (flattened).
 * It never executes anything and never throws on malformed input (it flags it `incomplete`).
 */

export const REDIRECT_OPS = [
  '>',
  '>>',
  '>|',
  '<',
  '<>',
  '<<',
  '<<-',
  '<<<',
  '>&',
  '<&',
  '&>',
  '&>>',
] as const;
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
  /**
   * Where a `cd` reaches: `0`, then one more dotted segment per subshell `( … )` or substitution, so a
   * `cd` applies to later commands of its scope and of scopes nested in it only.
   */
  scope: string;
}

export interface ParsedShell {
  commands: SimpleCommand[];
  /** Unbalanced quotes or substitutions, or nesting too deep: the reading is partial. */
  incomplete: boolean;
}

const MAX_DEPTH = 6;

export function parseShell(src: string, home: string, depth = 0, scope = '0'): ParsedShell {
  const parser = new ShellParser(src, home, depth, scope);
  parser.run();
  return { commands: parser.commands, incomplete: parser.incomplete };
}

class ShellParser extends WordReader {
  readonly commands: SimpleCommand[] = [];
  private words: ShellWord[] = [];
  private redirects: ShellRedirect[] = [];
  private cmdStart = -1;
  private cmdEnd = -1;
  private heredocs: { delim: string; stripTabs: boolean }[] = [];
  private readonly scopes: string[];
  private scopeCount = 0;

  constructor(
    src: string,
    home: string,
    private readonly depth: number,
    scope: string,
  ) {
    super(src, home);
    this.scopes = [scope];
  }

  protected nested(inner: string): void {
    if (this.depth + 1 > MAX_DEPTH) {
      this.incomplete = true;
      return;
    }
    const parsed = parseShell(inner, this.home, this.depth + 1, this.newScope());
    if (parsed.incomplete) this.incomplete = true;
    this.commands.push(...parsed.commands);
  }

  /** Reads a word and counts it in the current command's source span. */
  private word(): ShellWord {
    const start = this.i;
    const w = this.readWord();
    this.mark(start);
    return w;
  }

  private get scope(): string {
    return this.scopes[this.scopes.length - 1];
  }

  private newScope(): string {
    this.scopeCount += 1;
    return `${this.scope}.${this.scopeCount}`;
  }

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
        this.words.push(this.word());
      } else if (this.tryRedirect()) {
        // consumed
      } else if (c === ';' || c === '&' || c === '|' || c === '(' || c === ')') {
        this.endCommand();
        if (c === '(') this.scopes.push(this.newScope());
        if (c === ')' && this.scopes.length > 1) this.scopes.pop();
        this.i += operatorLength(s, this.i);
      } else {
        this.words.push(this.word());
      }
    }
    this.endCommand();
  }

  private mark(start: number): void {
    if (this.cmdStart < 0) this.cmdStart = start;
    this.cmdEnd = this.i;
  }

  private endCommand(): void {
    if (this.words.length > 0 || this.redirects.length > 0) {
      const text = this.src.slice(this.cmdStart, this.cmdEnd);
      this.commands.push({ words: this.words, redirects: this.redirects, text, scope: this.scope });
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
    if (
      next === undefined ||
      (WORD_BREAK.has(next) && !((next === '<' || next === '>') && this.src[this.i + 1] === '('))
    ) {
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
}
