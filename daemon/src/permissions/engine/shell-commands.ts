import type { ShellWord } from './shell-parse.js';
import type { AccessKind } from './types.js';

/**
 * What well-known commands do to their operands. Everything else falls to the generic reading
 * (operands that are plainly paths — absolute, `~`, or climbing with `..` — count as reads).
 */

export interface Operand {
  word: ShellWord;
  access: AccessKind;
}

export interface CommandEffect {
  operands: Operand[];
  /** Words of a command this one runs (`xargs rm`, `find -exec rm {} ;`, `sudo rm`), with `{}` marking its input. */
  nested: ShellWord[][];
  /** A shell script given as text (`bash -c '…'`, `eval …`). */
  scripts: string[];
  /** `cd` / `pushd` target. */
  cd: ShellWord | null | 'unknown';
  /** The command's arguments come from elsewhere (xargs): paths unknown. */
  opaque: boolean;
}

interface OptionSpec {
  /** Options that take the next word as value. */
  valued?: readonly string[];
}

interface Split {
  operands: ShellWord[];
  options: Map<string, ShellWord | true>;
}

export function splitOptions(args: readonly ShellWord[], spec: OptionSpec = {}): Split {
  const operands: ShellWord[] = [];
  const options = new Map<string, ShellWord | true>();
  const valued = new Set(spec.valued ?? []);
  let endOfOptions = false;
  for (let i = 0; i < args.length; i += 1) {
    const w = args[i];
    const t = w.text;
    if (endOfOptions || !t.startsWith('-') || t === '-') {
      operands.push(w);
      continue;
    }
    if (t === '--') {
      endOfOptions = true;
      continue;
    }
    const eq = t.indexOf('=');
    if (t.startsWith('--') && eq > 0) {
      options.set(t.slice(0, eq), {
        ...w,
        text: t.slice(eq + 1),
        staticPrefix: w.staticPrefix.slice(eq + 1),
      });
      continue;
    }
    if (valued.has(t) && i + 1 < args.length) {
      options.set(t, args[i + 1]);
      i += 1;
      continue;
    }
    const attached = !t.startsWith('--')
      ? [...valued].find((v) => v.length === 2 && t.startsWith(v) && t.length > 2)
      : undefined;
    if (attached !== undefined) {
      options.set(attached, { ...w, text: t.slice(2), staticPrefix: w.staticPrefix.slice(2) });
      continue;
    }
    options.set(t, true);
  }
  return { operands, options };
}

const none = (): CommandEffect => ({
  operands: [],
  nested: [],
  scripts: [],
  cd: null,
  opaque: false,
});
const all = (words: readonly ShellWord[], access: AccessKind): Operand[] =>
  words.map((word) => ({ word, access }));
const optionWord = (split: Split, ...names: string[]): ShellWord | undefined => {
  for (const n of names) {
    const v = split.options.get(n);
    if (v !== undefined && v !== true) return v;
  }
  return undefined;
};
const hasShortFlag = (split: Split, flag: string): boolean =>
  [...split.options.keys()].some((k) => !k.startsWith('--') && k.slice(1).includes(flag));

function copyLike(args: readonly ShellWord[], sourceAccess: AccessKind): CommandEffect {
  const split = splitOptions(args, {
    valued: ['-t', '--target-directory', '-S', '--suffix', '-m', '-o', '-g', '-e'],
  });
  const target = optionWord(split, '-t', '--target-directory');
  const effect = none();
  if (target !== undefined) {
    effect.operands = [...all(split.operands, sourceAccess), { word: target, access: 'write' }];
  } else if (split.operands.length > 0) {
    const dest = split.operands[split.operands.length - 1];
    effect.operands = [
      ...all(split.operands.slice(0, -1), sourceAccess),
      { word: dest, access: 'write' },
    ];
  }
  return effect;
}

/** Operands after a script/pattern argument, unless the script comes from -e/-f. */
function afterScript(
  args: readonly ShellWord[],
  valued: readonly string[],
  scriptOpts: readonly string[],
  access: AccessKind,
): CommandEffect {
  const split = splitOptions(args, { valued });
  const files = scriptOpts.some((o) => split.options.has(o))
    ? split.operands
    : split.operands.slice(1);
  const effect = none();
  effect.operands = all(files, access);
  for (const opt of ['-f', '--file']) {
    const scriptFile = optionWord(split, opt);
    if (scriptFile !== undefined) effect.operands.push({ word: scriptFile, access: 'read' });
  }
  return effect;
}

type Handler = (args: readonly ShellWord[]) => CommandEffect;

const simple =
  (access: AccessKind, valued: readonly string[] = []): Handler =>
  (args) => ({ ...none(), operands: all(splitOptions(args, { valued }).operands, access) });

const modeThenFiles: Handler = (args) => {
  const split = splitOptions(args, { valued: ['--reference'] });
  const files = split.options.has('--reference') ? split.operands : split.operands.slice(1);
  return { ...none(), operands: all(files, 'write') };
};

const shell: Handler = (args) => {
  const split = splitOptions(args, { valued: ['-o', '-O', '--rcfile', '--init-file'] });
  const effect = none();
  if (split.options.has('-c') || hasShortFlag(split, 'c')) {
    if (split.operands.length > 0) effect.scripts.push(split.operands[0].text);
    if (split.operands.length > 0 && split.operands[0].dynamic) effect.opaque = true;
  } else if (split.operands.length > 0) {
    effect.operands.push({ word: split.operands[0], access: 'read' });
  }
  return effect;
};

const READERS = [
  'cat',
  'less',
  'more',
  'wc',
  'diff',
  'cmp',
  'file',
  'stat',
  'ls',
  'tree',
  'du',
  'md5sum',
  'sha1sum',
  'sha256sum',
  'sha512sum',
  'base64',
  'xxd',
  'od',
  'hexdump',
  'strings',
  'nl',
  'tac',
  'bat',
  'realpath',
  'readlink',
  'source',
  '.',
  'unzip',
  'zcat',
  'gunzip',
  'comm',
  'paste',
  'cut',
  'tr',
  'column',
  'fold',
];

const GREP_VALUED = [
  '-e',
  '-f',
  '-m',
  '-A',
  '-B',
  '-C',
  '--regexp',
  '--file',
  '--include',
  '--exclude',
  '--exclude-dir',
  '--max-count',
];

export const HANDLERS: ReadonlyMap<string, Handler> = new Map<string, Handler>([
  ...READERS.map((name): [string, Handler] => [name, simple('read')]),
  ['head', simple('read', ['-n', '-c'])],
  ['tail', simple('read', ['-n', '-c', '-s', '--pid'])],
  [
    'sort',
    (args) => {
      const split = splitOptions(args, { valued: ['-o', '--output', '-k', '-t', '-S', '-T'] });
      const out = optionWord(split, '-o', '--output');
      return {
        ...none(),
        operands: [
          ...all(split.operands, 'read'),
          ...(out ? [{ word: out, access: 'write' as const }] : []),
        ],
      };
    },
  ],
  ['rm', simple('delete')],
  ['unlink', simple('delete')],
  ['rmdir', simple('delete')],
  ['shred', simple('write', ['-n', '-s'])],
  ['touch', simple('write', ['-d', '-r', '-t'])],
  ['mkdir', simple('write', ['-m'])],
  ['truncate', simple('write', ['-s', '-r'])],
  ['tee', simple('write')],
  ['chmod', modeThenFiles],
  ['chown', modeThenFiles],
  ['chgrp', modeThenFiles],
  ['mv', (args) => copyLike(args, 'delete')],
  ['cp', (args) => copyLike(args, 'read')],
  ['ln', (args) => copyLike(args, 'read')],
  ['install', (args) => copyLike(args, 'read')],
  [
    'rsync',
    (args) =>
      copyLike(
        args.filter((w) => !/^[^/]*:/.test(w.text)),
        'read',
      ),
  ],
  [
    'sed',
    (args) => {
      const split = splitOptions(args, { valued: ['-e', '-f', '-l', '--expression', '--file'] });
      const inPlace = [...split.options.keys()].some(
        (k) => k.startsWith('--in-place') || (!k.startsWith('--') && k.slice(1).includes('i')),
      );
      return afterScript(
        args,
        ['-e', '-f', '-l', '--expression', '--file'],
        ['-e', '-f', '--expression', '--file'],
        inPlace ? 'write' : 'read',
      );
    },
  ],
  [
    'perl',
    (args) => {
      const split = splitOptions(args, { valued: ['-e', '-E', '-I', '-M'] });
      const inPlace = hasShortFlag(split, 'i');
      return afterScript(args, ['-e', '-E', '-I', '-M'], ['-e', '-E'], inPlace ? 'write' : 'read');
    },
  ],
  ['grep', (args) => afterScript(args, GREP_VALUED, ['-e', '-f', '--regexp', '--file'], 'read')],
  ['egrep', (args) => afterScript(args, GREP_VALUED, ['-e', '-f', '--regexp', '--file'], 'read')],
  ['fgrep', (args) => afterScript(args, GREP_VALUED, ['-e', '-f', '--regexp', '--file'], 'read')],
  [
    'rg',
    (args) =>
      afterScript(
        args,
        [...GREP_VALUED, '-g', '--glob', '-t', '--type', '-T'],
        ['-e', '-f', '--regexp', '--file'],
        'read',
      ),
  ],
  ['awk', (args) => afterScript(args, ['-f', '-v', '-F'], ['-f'], 'read')],
  ['gawk', (args) => afterScript(args, ['-f', '-v', '-F'], ['-f'], 'read')],
  [
    'jq',
    (args) =>
      afterScript(
        args,
        ['--arg', '--argjson', '--slurpfile', '--rawfile', '-L'],
        ['-f', '--from-file'],
        'read',
      ),
  ],
  [
    'dd',
    (args) => ({
      ...none(),
      operands: args.flatMap((w): Operand[] => {
        const m = /^(if|of)=/.exec(w.text);
        if (!m) return [];
        const word = { ...w, text: w.text.slice(3), staticPrefix: w.staticPrefix.slice(3) };
        return [{ word, access: m[1] === 'of' ? 'write' : 'read' }];
      }),
    }),
  ],
  ['find', findEffect],
  [
    'xargs',
    (args) => {
      const split = splitOptions(args, {
        valued: ['-I', '-n', '-P', '-d', '-E', '-L', '-s', '-a', '--arg-file', '--delimiter'],
      });
      const effect = none();
      const argFile = optionWord(split, '-a', '--arg-file');
      if (argFile) effect.operands.push({ word: argFile, access: 'read' });
      const rest = args.slice(args.indexOf(split.operands[0] as ShellWord));
      if (split.operands.length > 0)
        effect.nested.push([...rest, { text: '{}', staticPrefix: '', dynamic: true, glob: false }]);
      effect.opaque = true;
      return effect;
    },
  ],
  ['bash', shell],
  ['sh', shell],
  ['zsh', shell],
  ['dash', shell],
  ['ksh', shell],
  [
    'eval',
    (args) => ({
      ...none(),
      scripts: [args.map((w) => w.text).join(' ')],
      opaque: args.some((w) => w.dynamic),
    }),
  ],
  ['cd', cdEffect],
  ['pushd', cdEffect],
]);

function cdEffect(args: readonly ShellWord[]): CommandEffect {
  const split = splitOptions(args);
  const target = split.operands[0];
  const effect = none();
  if (target === undefined) return { ...effect, cd: 'unknown' };
  if (target.text === '-' || target.dynamic || target.glob) return { ...effect, cd: 'unknown' };
  return { ...effect, cd: target, operands: [{ word: target, access: 'read' }] };
}

function findEffect(args: readonly ShellWord[]): CommandEffect {
  const firstExpr = args.findIndex((w) => /^[-(!]/.test(w.text));
  const roots = firstExpr < 0 ? [...args] : args.slice(0, firstExpr);
  const expr = firstExpr < 0 ? [] : args.slice(firstExpr);
  const effect = none();
  const deletes = expr.some((w) => w.text === '-delete');
  effect.operands = all(roots, deletes ? 'delete' : 'read');
  for (let i = 0; i < expr.length; i += 1) {
    if (!['-exec', '-execdir', '-ok', '-okdir'].includes(expr[i].text)) continue;
    const end = expr.findIndex((w, j) => j > i && (w.text === ';' || w.text === '+'));
    const words = expr.slice(i + 1, end < 0 ? expr.length : end);
    // `{}` stands for what find walks: each root.
    for (const root of roots.length > 0
      ? roots
      : [{ text: '.', staticPrefix: '.', dynamic: false, glob: false }]) {
      effect.nested.push(words.map((w) => (w.text === '{}' ? root : w)));
    }
    i = end < 0 ? expr.length : end;
  }
  for (const opt of ['-fprint', '-fprintf', '-fls']) {
    const at = expr.findIndex((w) => w.text === opt);
    if (at >= 0 && expr[at + 1]) effect.operands.push({ word: expr[at + 1], access: 'write' });
  }
  return effect;
}

/** Generic commands: operands that are unmistakably paths. */
export function genericEffect(args: readonly ShellWord[]): CommandEffect {
  const operands = args.filter((w) => looksLikePath(w.text) && !w.text.startsWith('-'));
  return { ...none(), operands: all(operands, 'read') };
}

export function looksLikePath(text: string): boolean {
  if (text === '' || /\s/.test(text) || text.includes('://')) return false;
  return text.startsWith('/') || text.split('/').includes('..');
}
