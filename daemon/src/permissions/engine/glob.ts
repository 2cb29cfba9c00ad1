import path from 'node:path';
import picomatch from 'picomatch';
import { RE2JS } from 're2js';
import type { RulePattern } from './rule-pattern.js';

/**
 * Path globs of the rules file.
 * - no `/` at all: a name, compared to every segment of the path (`.env`, `*.pem`, `node_modules`);
 * - `~` or `~/…`: under the home folder; `/…`: absolute; anything else, `specs/` included: relative to the
 *   session's cwd (a trailing `/` only says "folder").
 * `**` crosses folders, `*` and `?` stay inside one segment, `[…]` and `{a,b}` as usual.
 * An anchored glob also covers everything beneath what it matches (`~/.ssh` protects `~/.ssh/id_rsa`).
 */
export type GlobAnchor = 'name' | 'home' | 'absolute' | 'cwd';

export interface CompiledGlob {
  source: string;
  anchor: GlobAnchor;
  /** For `name`: one segment. Otherwise: the path relative to its anchor (absolute for `absolute`). */
  re: RulePattern;
  /** The literal folder part before the first wildcard, relative to the anchor ('' when none). */
  literalPrefix: string;
}

/** What picomatch adds to keep `.` and `..` segments out: our paths are canonical and have none. */
const DOT_SEGMENT_GUARDS = [
  String.raw`(?!(?:^|\/)\.{1,2}(?:\/|$))`,
  String.raw`(?!\.{1,2}(?:\/|$))`,
  '(?=.)',
];

/**
 * A glob as RE2 source (anchored): picomatch reads the glob, and its regular expression runs on
 * RE2 like the rules' patterns, so no path can make a match slow. `[!…]` is a negated class and a
 * leading `!` a plain character, as in the shell (picomatch would read it as "not").
 */
export function globSource(glob: string): string {
  const shellish = glob.replace(/^!/, '\\!').replace(/(?<!\\)\[!/g, '[^');
  let source = picomatch.makeRe(shellish, { dot: true, noextglob: true }).source;
  for (const guard of DOT_SEGMENT_GUARDS) source = source.replaceAll(guard, '');
  if (!source.startsWith('^') || !source.endsWith('$') || /\(\?<?[=!]/.test(source))
    throw new Error(`glob "${glob}" cannot be matched in linear time`);
  return source;
}

/** Compiled globs by source: an agent repeats its wildcards, and compiling costs more than matching. */
const compiledBySource = new Map<string, RulePattern>();
const COMPILED_KEPT = 2_000;

function re2(source: string): RulePattern {
  let compiled = compiledBySource.get(source);
  if (compiled === undefined) {
    compiled = RE2JS.compile(source);
    // The oldest entry goes first (a Map keeps insertion order): the cache never grows past its bound.
    if (compiledBySource.size >= COMPILED_KEPT)
      compiledBySource.delete(compiledBySource.keys().next().value!);
    compiledBySource.set(source, compiled);
  }
  return compiled;
}

function itOrBeneath(it: RulePattern, beneath: RulePattern): RulePattern {
  return { test: (rel) => it.test(rel) || beneath.test(rel) };
}

export function hasWildcard(text: string): boolean {
  return /[*?[{]/.test(text);
}

export function compileGlob(source: string): CompiledGlob {
  const folder = source.endsWith('/');
  let body = source.replace(/\/+$/, '');
  let anchor: GlobAnchor;
  if (body === '~' || body.startsWith('~/')) {
    anchor = 'home';
    body = body.slice(2);
  } else if (body.startsWith('/')) {
    anchor = 'absolute';
  } else if (!body.includes('/') && !folder) {
    anchor = 'name';
  } else {
    anchor = 'cwd';
    body = body.replace(/^(\.\/)+/, '');
  }
  if (anchor === 'name') {
    return { source, anchor, re: re2(globSource(body)), literalPrefix: '' };
  }
  const segments = body.split('/');
  const firstWild = segments.findIndex(hasWildcard);
  const literalPrefix = (firstWild < 0 ? segments : segments.slice(0, firstWild)).join('/');
  const re =
    body === '' ? re2('^.*$') : itOrBeneath(re2(globSource(body)), re2(globSource(`${body}/**`)));
  return { source, anchor, re, literalPrefix };
}

/** Segments of `p` below `root` (all of them if `p` is not below `root`). */
export function segmentsBelow(p: string, root: string | null): string[] {
  const rel = root !== null && isWithin(p, root) ? p.slice(root.length) : p;
  return rel.split('/').filter((seg) => seg !== '');
}

/** Segment-wise containment: `/w/abc-evil` is not within `/w/abc`. */
export function isWithin(p: string, root: string): boolean {
  if (root === '/') return p.startsWith('/');
  return p === root || (p.startsWith(root) && p[root.length] === '/');
}

/** Relative path from `root` to `p` when `p` is within `root`, else null. */
export function relativeWithin(p: string, root: string): string | null {
  if (!isWithin(p, root)) return null;
  return p === root ? '' : path.relative(root, p);
}

/** A shell wildcard limited to one segment (for expanding `*.pem` in a folder): bash skips dot-files unless asked. */
export function segmentMatcher(pattern: string): RulePattern {
  const re = re2(globSource(pattern));
  const dotted = pattern.startsWith('.');
  return { test: (name) => (dotted || !name.startsWith('.')) && re.test(name) };
}
