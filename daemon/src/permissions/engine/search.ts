import path from 'node:path';
import picomatch from 'picomatch';
import { compileGlob, isWithin, type CompiledGlob } from './glob.js';
import type { CheckedPath } from './path-step.js';
import type { Decision, PathRule, RuleSet } from './types.js';

/**
 * Search tools are decided by the files they can reach, not only by their root (see the README):
 * - a name filter that targets a zero-access name (`.env`, `*.pem`, `**\/.ssh/*`) is refused;
 * - a content search is narrowed: every zero-access name, and every zero-access folder under its
 *   root (`~/.ssh` when searching the home folder, the daemon's data folder when searching its
 *   parent), is excluded through the tool's own filter, and the agent runs the narrowed input;
 * - a content search the tool cannot narrow goes to a person.
 * A names-only search (Glob) lists names, never contents: only the targeting check applies.
 */
export interface SearchTool {
  reads: 'contents' | 'names';
  /** The name filters of the input, split the way the tool splits them. */
  filters(input: Record<string, unknown>): string[];
  /** The input with these globs excluded, or null when the tool offers no way to exclude. */
  exclude:
    ((input: Record<string, unknown>, globs: readonly string[]) => Record<string, unknown>) | null;
}

/** Claude Code hands each `glob` word to ripgrep as one `--glob`; `{a,b}` stays whole, else commas split. */
function claudeGlobWords(value: unknown): string[] {
  if (typeof value !== 'string') return [];
  return value
    .split(/\s+/)
    .flatMap((word) => (word.includes('{') && word.includes('}') ? [word] : word.split(',')))
    .filter((word) => word !== '');
}

export const SEARCH_TOOLS: Readonly<Record<string, SearchTool>> = {
  Grep: {
    reads: 'contents',
    filters: (input) => claudeGlobWords(input['glob']),
    // ripgrep: a later --glob wins over an earlier one, so the exclusions go last.
    exclude: (input, globs) => ({
      ...input,
      glob: [...claudeGlobWords(input['glob']), ...globs.map((g) => `!${g}`)].join(' '),
    }),
  },
  Glob: {
    reads: 'names',
    filters: (input) => (typeof input['pattern'] === 'string' ? [input['pattern']] : []),
    exclude: null,
  },
};

interface Circle {
  rule: PathRule;
  glob: CompiledGlob;
}

const circlesCache = new WeakMap<RuleSet, Circle[]>();

function zeroAccessCircles(set: RuleSet): Circle[] {
  const hit = circlesCache.get(set);
  if (hit) return hit;
  const circles = set.rules.flatMap((rule) =>
    rule.kind === 'zero_access' ? rule.paths.map((p) => ({ rule, glob: compileGlob(p) })) : [],
  );
  circlesCache.set(set, circles);
  return circles;
}

export interface SearchSubject {
  tool: SearchTool;
  input: Record<string, unknown>;
  /** The search's root, resolved. */
  root: CheckedPath;
  rules: RuleSet;
  cwd: { raw: string; real: string };
  home: { raw: string; real: string };
  dataDir: { raw: string; real: string };
}

export type SearchOutcome =
  | { kind: 'refused'; decision: Decision }
  | { kind: 'narrowed'; input: Record<string, unknown> }
  | { kind: 'unchanged' }
  | { kind: 'ask'; reason: string };

export function searchStep(s: SearchSubject): SearchOutcome {
  const circles = zeroAccessCircles(s.rules);
  const filters = s.tool.filters(s.input);
  const parts = filters.reduce((n, f) => n + f.split('/').length, 0);
  if (parts > MAX_FILTER_PARTS)
    return {
      kind: 'ask',
      reason: `the search filter has ${parts} parts, more than the ${MAX_FILTER_PARTS} the engine checks`,
    };
  const targeted = targetedCircle(filters, circles);
  if (targeted !== null) {
    return {
      kind: 'refused',
      decision: {
        decision: targeted.circle.rule.action ?? 'deny',
        step: 'rule',
        rule: targeted.circle.rule.id,
        reason: `${targeted.circle.rule.reason} (zero-access ${targeted.circle.glob.source}: the search filter "${targeted.filter}" targets it)`,
      },
    };
  }
  if (s.tool.reads === 'names') return { kind: 'unchanged' };
  const globs = [...nameExclusions(circles), ...folderExclusions(s, circles)];
  const unusable = globs.find((g) => !representable(g));
  if (s.tool.exclude === null || unusable !== undefined) {
    return {
      kind: 'ask',
      reason: `the search can reach zero-access files and ${unusable === undefined ? 'this tool cannot exclude them' : `"${unusable}" cannot be excluded through its filter`}`,
    };
  }
  return { kind: 'narrowed', input: s.tool.exclude(s.input, [...new Set(globs)]) };
}

/** Filter words and segments checked for an aim at a circle (each costs a compile). */
const MAX_FILTER_PARTS = 32;
const NEUTRAL_NAMES = ['x', 'x.txt', '.x', 'x.x', 'x/x'];
/** Longer than any file name: such a filter segment cannot name a file, only burn time. */
const MAX_SEGMENT = 255;

/** Names a circle glob stands for: `*.pem` → `.pem`, `x.pem`; `.env.*.local` → `.env..local`, `.env.x.local`. */
function sampleNames(glob: string): string[] {
  const braced = /\{([^{}]*)\}/.exec(glob);
  if (braced) {
    return braced[1]!.split(',').flatMap((alt) => sampleNames(glob.replace(braced[0], alt)));
  }
  if (/[[\]]/.test(glob)) return [];
  const one = glob.replaceAll('?', 'x');
  return [one.replaceAll('*', ''), one.replaceAll('*', 'x')];
}

const matchers = new Map<string, ((name: string) => boolean) | null>();

/** Compiled once per segment text (a bounded cache: filters repeat, compiling costs). */
function matcher(glob: string): ((name: string) => boolean) | null {
  let found = matchers.get(glob);
  if (found === undefined && !matchers.has(glob)) {
    found = compileMatcher(glob);
    if (matchers.size >= 1000) matchers.clear();
    matchers.set(glob, found);
  }
  return found ?? null;
}

function compileMatcher(glob: string): ((name: string) => boolean) | null {
  if (glob.length > MAX_SEGMENT) return null;
  try {
    const test = picomatch(glob, { dot: true, noextglob: true });
    return (name) => test(name);
  } catch {
    return null;
  }
}

/**
 * A filter targets a circle when one of its segments matches what the circle names but not an
 * ordinary name: `.env`, `*.pem`, `.e*` target; `*`, `*.ts`, `.*` do not (they are not aimed at it;
 * a content search is narrowed anyway).
 */
function targetedCircle(
  filters: readonly string[],
  circles: readonly Circle[],
): { circle: Circle; filter: string } | null {
  for (const filter of filters) {
    if (filter.startsWith('!')) continue;
    for (const segment of filter.split('/')) {
      if (segment === '' || segment === '**') continue;
      const matches = matcher(segment);
      if (matches === null || NEUTRAL_NAMES.some(matches)) continue;
      for (const circle of circles) {
        const names =
          circle.glob.anchor === 'name'
            ? sampleNames(circle.glob.source)
            : [path.basename(circle.glob.literalPrefix)].filter((n) => n !== '');
        if (names.some(matches)) return { circle, filter };
      }
    }
  }
  return null;
}

function nameExclusions(circles: readonly Circle[]): string[] {
  return circles.filter((c) => c.glob.anchor === 'name').map((c) => c.glob.source);
}

/** Zero-access folders under the root, excluded wherever the walk meets them (`**\/<path>`). */
function folderExclusions(s: SearchSubject, circles: readonly Circle[]): string[] {
  const folders: string[] = [s.dataDir.raw, s.dataDir.real];
  for (const { glob } of circles) {
    if (glob.anchor === 'name') continue;
    const bases =
      glob.anchor === 'absolute'
        ? ['']
        : glob.anchor === 'home'
          ? [s.home.raw, s.home.real]
          : [s.cwd.raw, s.cwd.real];
    for (const base of bases) folders.push(path.join(base || '/', glob.literalPrefix));
  }
  const out: string[] = [];
  for (const folder of folders) {
    for (const root of [s.root.real, s.root.lexical]) {
      if (folder === root || !isWithin(folder, root)) continue;
      out.push(`**/${escapeGlob(path.relative(root, folder))}`);
    }
  }
  return out;
}

function escapeGlob(literal: string): string {
  return literal.replace(/[\\*?[\]{}!]/g, '\\$&');
}

/** Claude Code splits `glob` on blanks, and on commas outside `{…}`. */
function representable(glob: string): boolean {
  return !/\s/.test(glob) && (!glob.includes(',') || (glob.includes('{') && glob.includes('}')));
}
