import path from 'node:path';
import { segmentMatcher } from './glob.js';
import type { RulePattern } from './rule-pattern.js';
import { HANDLERS, genericEffect, splitOptions, type CommandEffect } from './shell-commands.js';
import { parseShell, type ShellWord, type SimpleCommand } from './shell-parse.js';
import type { PathRef } from './tools.js';
import type { AccessKind, EngineFs } from './types.js';

export interface ShellAnalysis {
  refs: PathRef[];
  /** Every simple command's text, inner ones (`$(…)`, `bash -c '…'`, `-exec …`) included. */
  commandTexts: string[];
  /**
   * The texts deny and ask rules are tested against: every command text, plus each command's normal
   * forms (quotes removed, the command word by its base name, and again after each wrapper).
   */
  commandForms: string[];
  /** Set when part of what the command touches cannot be told from its text. */
  uncertain: string | null;
}

const KEYWORDS = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'do',
  'done',
  'while',
  'until',
  '{',
  '}',
  '!',
  '[[',
  'coproc',
  'function',
]);
const SKIPPED = new Set(['for', 'select', 'case', 'esac', 'in']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;

/** Wrappers that run the command after them; the value lists the options that take a value. */
const WRAPPERS: ReadonlyMap<string, { valued: readonly string[]; skipOperands?: number }> = new Map(
  [
    ['sudo', { valued: ['-u', '-g', '-C', '-D', '-h', '-p', '-U', '-r', '-t', '-T'] }],
    ['doas', { valued: ['-u', '-C'] }],
    ['env', { valued: ['-u', '--unset', '-C', '--chdir', '-S', '--split-string'] }],
    ['nohup', { valued: [] }],
    ['time', { valued: ['-f', '-o'] }],
    ['command', { valued: [] }],
    ['builtin', { valued: [] }],
    ['exec', { valued: ['-a'] }],
    ['nice', { valued: ['-n'] }],
    ['ionice', { valued: ['-c', '-n', '-t'] }],
    ['timeout', { valued: ['-s', '-k', '--signal', '--kill-after'], skipOperands: 1 }],
    ['stdbuf', { valued: ['-i', '-o', '-e'] }],
    ['setsid', { valued: [] }],
    ['watch', { valued: ['-n', '-d'] }],
    ['busybox', { valued: [] }],
  ],
);

const MAX_NESTING = 6;
const MAX_GLOB_MATCHES = 200;
/** Wildcard words expanded per command (each costs a compile and a readdir); past it: unknown. */
const MAX_GLOB_WORDS = 16;
const MAX_WRAPPERS = 16;

class Analyzer {
  readonly refs: PathRef[] = [];
  readonly commandTexts: string[] = [];
  readonly commandForms = new Set<string>();
  uncertain: string | null = null;
  /** Folder per scope after a `cd` in it; null when the text does not tell which. */
  private readonly cwdByScope = new Map<string, string | null>();
  private scope = '0';
  private scriptCount = 0;
  private globCount = 0;

  constructor(
    cwd: string,
    private readonly home: string,
    private readonly fs: EngineFs,
  ) {
    this.cwdByScope.set('0', cwd);
  }

  script(text: string, depth: number, scope = '0'): void {
    if (depth > MAX_NESTING) return this.doubt('shell text nested too deep to read');
    const parsed = parseShell(text, this.home, 0, scope);
    if (parsed.incomplete) this.doubt('the command line could not be read completely');
    for (const cmd of parsed.commands) this.command(cmd, depth);
  }

  /** The folder commands of the current scope run in: the nearest enclosing scope that saw a `cd`. */
  private get cwd(): string | null {
    for (let s = this.scope; ; s = s.slice(0, s.lastIndexOf('.'))) {
      const found = this.cwdByScope.get(s);
      if (found !== undefined) return found;
      if (!s.includes('.')) return this.cwdByScope.get('0') ?? null;
    }
  }

  private command(cmd: SimpleCommand, depth: number): void {
    this.scope = cmd.scope;
    this.commandTexts.push(cmd.text);
    this.commandForms.add(cmd.text);
    for (const r of cmd.redirects) {
      if (r.target !== null) this.operand(r.target, r.op === '<' ? 'read' : 'write', 'redirection');
    }
    this.words(cmd.words, depth);
  }

  private words(all: readonly ShellWord[], depth: number): void {
    const words = this.stripPrefix(all);
    if (words.length === 0) return;
    const head = words[0];
    if (SKIPPED.has(head.text)) return;
    if (head.dynamic)
      return this.doubt(`the command name "${head.staticPrefix}…" is not known from the text`);
    const name = path.basename(head.text);
    const args = words.slice(1);
    const effect: CommandEffect = HANDLERS.get(name)?.(args) ?? genericEffect(args);
    for (const op of effect.operands) this.operand(op.word, op.access, name);
    if (effect.opaque) this.doubt(`${name} takes arguments the text does not show`);
    for (const nested of effect.nested) this.words(nested, depth + 1);
    const here = this.scope;
    for (const script of effect.scripts) {
      this.scriptCount += 1;
      this.script(script, depth + 1, `${here}.c${this.scriptCount}`);
      this.scope = here;
    }
    if (effect.cd === 'unknown') this.cwdByScope.set(this.scope, null);
    else if (effect.cd !== null) {
      const from = this.cwd;
      this.cwdByScope.set(this.scope, from === null ? null : path.resolve(from, effect.cd.text));
    }
  }

  private stripPrefix(all: readonly ShellWord[]): ShellWord[] {
    let words = [...all];
    for (let stage = 0; ; stage += 1) {
      if (stage > MAX_WRAPPERS) {
        this.doubt('too many wrapper commands in a row to read');
        return [];
      }
      while (words.length > 0 && (ASSIGNMENT.test(words[0].text) || KEYWORDS.has(words[0].text)))
        words = words.slice(1);
      this.addForm(words);
      const wrapper = words.length > 0 ? WRAPPERS.get(path.basename(words[0].text)) : undefined;
      if (wrapper === undefined) return words;
      const name = path.basename(words[0].text);
      let i = 1;
      while (i < words.length && words[i].text.startsWith('-') && words[i].text !== '--') {
        i += wrapper.valued.includes(words[i].text) ? 2 : 1;
      }
      if (words[i]?.text === '--') i += 1;
      if (name === 'env') {
        const split = splitOptions(words.slice(1, i), { valued: wrapper.valued });
        const dir = split.options.get('-C') ?? split.options.get('--chdir');
        if (dir !== undefined && dir !== true) {
          this.operand(dir, 'read', 'env -C');
          this.doubt('env -C runs the command in another folder');
        }
        const script = split.options.get('-S') ?? split.options.get('--split-string');
        if (script !== undefined && script !== true) this.script(script.text, 1, `${this.scope}.e`);
      }
      if (name === 'command' && words[1]?.text.startsWith('-v')) return [];
      i += wrapper.skipOperands ?? 0;
      words = words.slice(i);
    }
  }

  /** `/usr/bin/sudo "rm" -rf x` → `sudo rm -rf x`: what the command is, however it is spelt. */
  private addForm(words: readonly ShellWord[]): void {
    if (words.length === 0) return;
    const [head, ...args] = words;
    this.commandForms.add(
      [quoteWord(path.basename(head.text)), ...args.map((w) => quoteWord(w.text))].join(' '),
    );
  }

  private operand(word: ShellWord, access: AccessKind, origin: string): void {
    if (word.dynamic) return this.dynamicOperand(word, access, origin);
    const cwd = this.cwd;
    if (cwd === null && !word.staticPrefix.startsWith('/')) {
      return this.doubt(`"${word.text}" is relative to a folder the text does not show`);
    }
    if (word.glob) return this.globOperand(word, access, origin, cwd ?? '/');
    this.refs.push({ raw: word.text, access, cwds: [cwd ?? '/'], origin });
  }

  private dynamicOperand(word: ShellWord, access: AccessKind, origin: string): void {
    const what =
      word.staticPrefix === '' ? `an argument of ${origin}` : `"${word.staticPrefix}…" (${origin})`;
    this.doubt(`${what} cannot be resolved from the text`);
    const slash = word.staticPrefix.lastIndexOf('/');
    if (slash < 0) return;
    const dir = word.staticPrefix.slice(0, slash + 1);
    const cwd = this.cwd;
    if (cwd !== null || dir.startsWith('/'))
      this.refs.push({ raw: dir, access, cwds: [cwd ?? '/'], origin, dynamic: true });
  }

  /** Wildcards in the last segment only: expanded against the real folder, as bash would. */
  private globOperand(word: ShellWord, access: AccessKind, origin: string, cwd: string): void {
    const slash = word.text.lastIndexOf('/');
    const dir = slash < 0 ? '' : word.text.slice(0, slash + 1);
    if (/[*?[{]/.test(dir)) {
      this.dynamicOperand(word, access, origin);
      return;
    }
    const last = word.text.slice(slash + 1);
    this.globCount += 1;
    if (this.globCount > MAX_GLOB_WORDS) return this.dynamicOperand(word, access, origin);
    // No file name is longer than 255 bytes: a longer wildcard is not worth compiling.
    if (last.length > 255) return this.dynamicOperand(word, access, origin);
    let matcher: RulePattern;
    try {
      matcher = segmentMatcher(last);
    } catch {
      this.dynamicOperand(word, access, origin);
      return;
    }
    const abs = path.resolve(cwd, dir === '' ? '.' : dir);
    let names: string[];
    try {
      names = this.fs.readdir(abs).filter((n) => matcher.test(n));
    } catch {
      names = [];
    }
    if (names.length > MAX_GLOB_MATCHES)
      this.doubt(`"${word.text}" matches too many files to check`);
    if (names.length === 0) this.refs.push({ raw: word.text, access, cwds: [cwd], origin });
    for (const n of names.slice(0, MAX_GLOB_MATCHES))
      this.refs.push({ raw: path.join(abs, n), access, cwds: [cwd], origin });
  }

  private doubt(reason: string): void {
    this.uncertain ??= reason;
  }
}

/** The paths a bash command names, as far as its text allows (see the engine README for the limits). */
export function analyzeShell(
  command: string,
  cwd: string,
  home: string,
  fs: EngineFs,
): ShellAnalysis {
  const analyzer = new Analyzer(cwd, home, fs);
  analyzer.script(command, 0);
  return {
    refs: analyzer.refs,
    commandTexts: analyzer.commandTexts,
    commandForms: [...analyzer.commandForms],
    uncertain: analyzer.uncertain,
  };
}

/** A word as the shell would read it back: quoted when it holds blanks or shell syntax. */
function quoteWord(text: string): string {
  return /^[\w@%+=:,./{}-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}
