import fs from 'node:fs';
import path from 'node:path';
import type { EngineFs } from './types.js';

export const nodeFs: EngineFs = {
  realpath: (p) => fs.realpathSync.native(p),
  lstat: (p) => fs.lstatSync(p),
  stat: (p) => fs.statSync(p),
  readlink: (p) => fs.readlinkSync(p),
  readdir: (p) => fs.readdirSync(p),
};

/**
 * One decision's view of the file system: each question asked once (a command with many glob words
 * or paths in one folder reads it once), and every part of the decision sees the same answers.
 */
export function snapshotFs(inner: EngineFs): EngineFs {
  const memo = <T>(read: (p: string) => T): ((p: string) => T) => {
    const seen = new Map<string, { value: T } | { error: unknown }>();
    return (p) => {
      let entry = seen.get(p);
      if (!entry) {
        try {
          entry = { value: read(p) };
        } catch (error: unknown) {
          entry = { error };
        }
        seen.set(p, entry);
      }
      if ('error' in entry) throw entry.error;
      return entry.value;
    };
  };
  return {
    realpath: memo((p) => inner.realpath(p)),
    lstat: memo((p) => inner.lstat(p)),
    stat: memo((p) => inner.stat(p)),
    readlink: memo((p) => inner.readlink(p)),
    readdir: memo((p) => inner.readdir(p)),
  };
}

export interface Resolved {
  /** Canonical real path (symbolic links followed, `.` and `..` applied physically). */
  real: string;
  /** The canonical path exists. */
  exists: boolean;
  /** A symbolic link was followed on the way. */
  viaLink: boolean;
}

export class PathResolutionError extends Error {}

const MAX_LINK_HOPS = 40;

function errorCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err
    ? String((err as { code: unknown }).code)
    : undefined;
}

/**
 * Canonical real path of `target` (relative to `cwd`) as the kernel would reach it: `..` after a
 * symbolic link climbs from the link's target, not lexically. A path that does not exist is resolved
 * through its deepest existing ancestor; a dangling link is resolved to the target a write would create.
 * `followLast: false` stops at the last segment itself (what rm or mv act on).
 */
export function canonicalize(
  fsApi: EngineFs,
  cwd: string,
  target: string,
  followLast = true,
): Resolved {
  const joined = target.startsWith('/') ? target : `${cwd}/${target}`;
  if (followLast) {
    try {
      const real = fsApi.realpath(joined);
      return { real, exists: true, viaLink: real !== path.resolve(joined) };
    } catch (err: unknown) {
      const code = errorCode(err);
      if (code !== 'ENOENT' && code !== 'ENOTDIR')
        throw new PathResolutionError(`${target}: ${code ?? String(err)}`);
    }
  } else {
    const normal = path.resolve(joined);
    const base = path.basename(normal);
    if (base === '' || /\/\.{0,2}\/*$/.test(joined)) return canonicalize(fsApi, cwd, target, true);
    const parent = canonicalize(fsApi, '/', path.dirname(joined), true);
    const real = path.join(parent.real, base);
    return { real, exists: parent.exists && exists(fsApi, real), viaLink: parent.viaLink };
  }
  return walk(fsApi, joined);
}

function exists(fsApi: EngineFs, p: string): boolean {
  try {
    fsApi.lstat(p);
    return true;
  } catch (err: unknown) {
    const code = errorCode(err);
    if (code === 'ENOENT' || code === 'ENOTDIR') return false;
    throw new PathResolutionError(`${p}: ${code ?? String(err)}`);
  }
}

function walk(fsApi: EngineFs, joined: string): Resolved {
  const pending = joined.split('/').reverse();
  let current = '/';
  let hops = 0;
  while (pending.length > 0) {
    const seg = pending.pop() as string;
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      current = path.dirname(current);
      continue;
    }
    const next = current === '/' ? `/${seg}` : `${current}/${seg}`;
    let isLink: boolean;
    try {
      isLink = fsApi.lstat(next).isSymbolicLink();
    } catch (err: unknown) {
      const code = errorCode(err);
      if (code !== 'ENOENT' && code !== 'ENOTDIR')
        throw new PathResolutionError(`${next}: ${code ?? String(err)}`);
      const rest = pending.reverse().join('/');
      return { real: path.resolve(next, rest), exists: false, viaLink: hops > 0 };
    }
    if (!isLink) {
      current = next;
      continue;
    }
    hops += 1;
    if (hops > MAX_LINK_HOPS)
      throw new PathResolutionError(`${joined}: too many levels of symbolic links`);
    const linkTarget = fsApi.readlink(next);
    if (linkTarget.startsWith('/')) current = '/';
    pending.push(...linkTarget.split('/').reverse());
  }
  return { real: current, exists: true, viaLink: hops > 0 };
}
