import path from 'node:path';

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
  re: RegExp;
  /** The literal folder part before the first wildcard, relative to the anchor ('' when none). */
  literalPrefix: string;
}

const SPECIAL = /[\\^$.+()|]/;

export function globBody(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i += 1) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      const slashAfter = glob[i + 2] === '/';
      const atSegmentStart = i === 0 || glob[i - 1] === '/';
      if (atSegmentStart && slashAfter) {
        out += '(?:[^/]*/)*';
        i += 2;
      } else {
        out += '.*';
        i += 1;
      }
    } else if (c === '*') {
      out += '[^/]*';
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close < 0) {
        out += '\\[';
      } else {
        const body = glob
          .slice(i + 1, close)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\');
        if (validClass(body)) {
          out += `[${body}]`;
          i = close;
        } else {
          out += '\\[';
        }
      }
    } else if (c === '{') {
      const close = glob.indexOf('}', i);
      if (close < 0) {
        out += '\\{';
      } else {
        out += `(?:${glob
          .slice(i + 1, close)
          .split(',')
          .map(globBody)
          .join('|')})`;
        i = close;
      }
    } else {
      out += SPECIAL.test(c) ? `\\${c}` : c;
    }
  }
  return out;
}

function validClass(body: string): boolean {
  try {
    new RegExp(`[${body}]`);
    return true;
  } catch {
    return false;
  }
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
    return { source, anchor, re: new RegExp(`^${globBody(body)}$`), literalPrefix: '' };
  }
  const segments = body.split('/');
  const firstWild = segments.findIndex(hasWildcard);
  const literalPrefix = (firstWild < 0 ? segments : segments.slice(0, firstWild)).join('/');
  const re = body === '' ? /^.*$/ : new RegExp(`^${globBody(body)}(?:/.*)?$`);
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
export function segmentMatcher(pattern: string): RegExp {
  const body = globBody(pattern);
  return new RegExp(pattern.startsWith('.') ? `^${body}$` : `^(?!\\.)${body}$`);
}
