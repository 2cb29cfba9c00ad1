import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmdirSync,
  unlinkSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { join } from 'node:path';

/**
 * Small files Relais writes into a folder it does not own (an agent's configuration folder): the
 * folders on the way are real folders (never a link, created one by one), a file is written to a
 * temporary name created exclusively (random, `wx`: a link or file planted there makes it fail)
 * and renamed into place, and a file is read or removed without following a link. Synchronous on
 * purpose: a handful of small files at a library change or a launch.
 */

/** Above what Relais ever writes there (a library item is at most 200,000 characters): not read. */
const MAX_CONFINED_BYTES = 1024 * 1024;

export const sha256 = (bytes: Buffer | string): string =>
  createHash('sha256').update(bytes).digest('hex');

/** What is at a path of the folder. */
export type OnDisk =
  { state: 'absent' } | { state: 'file'; sha256: string } | { state: 'other'; why: string };

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch (error: unknown) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * The folder holding `relative` (a `/`-separated path under `base`), each step a real folder; made
 * when `create`. A string says why not (a link or a file on the way).
 */
function folderOf(base: string, relative: string, create: boolean): { dir: string } | string {
  let dir = base;
  for (const segment of relative.split('/').slice(0, -1)) {
    dir = join(dir, segment);
    let info = lstatOrNull(dir);
    if (!info) {
      if (!create) return 'absent';
      try {
        mkdirSync(dir, { mode: 0o700 });
      } catch (error: unknown) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      info = lstatSync(dir);
    }
    if (!info.isDirectory())
      return `${dir} is ${info.isSymbolicLink() ? 'a link' : 'not a folder'}`;
  }
  return { dir };
}

const name = (relative: string): string => relative.split('/').pop()!;

/** What is at `relative`: nothing, a regular file (its hash, read without following a link), or else. */
export function onDisk(base: string, relative: string): OnDisk {
  const read = readConfined(base, relative, MAX_CONFINED_BYTES);
  if ('bytes' in read) return { state: 'file', sha256: sha256(read.bytes) };
  return read.why === null ? { state: 'absent' } : { state: 'other', why: read.why };
}

/**
 * The bytes of a small regular file at `relative` under `base` (an agent's credentials, a file
 * Relais placed): no link followed on the way or at the file, one hard link only, never waiting on
 * a FIFO, at most `maxBytes`. `why` is null when nothing is there, else why it was not read.
 */
export function readConfined(
  base: string,
  relative: string,
  maxBytes: number,
): { bytes: Buffer } | { why: string | null } {
  const folder = folderOf(base, relative, false);
  if (folder === 'absent') return { why: null };
  if (typeof folder === 'string') return { why: folder };
  const path = join(folder.dir, name(relative));
  const info = lstatOrNull(path);
  if (!info) return { why: null };
  if (!info.isFile()) return { why: `${path} is not a regular file` };
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const opened = fstatSync(fd);
    if (!opened.isFile() || opened.dev !== info.dev || opened.ino !== info.ino)
      return { why: `${path} changed while it was read` };
    if (opened.nlink > 1) return { why: `${path} has more than one hard link` };
    if (opened.size > maxBytes) return { why: `${path} is larger than ${maxBytes} bytes` };
    const bytes = Buffer.alloc(opened.size);
    let at = 0;
    while (at < bytes.length) {
      const read = readSync(fd, bytes, at, bytes.length - at, at);
      if (read === 0) break;
      at += read;
    }
    return { bytes: bytes.subarray(0, at) };
  } finally {
    closeSync(fd);
  }
}

/** Writes `text` at `relative` (replacing what is there: the caller decided it may); false when refused. */
export function writeConfined(base: string, relative: string, text: string): boolean {
  const folder = folderOf(base, relative, true);
  if (typeof folder === 'string') return false;
  const path = join(folder.dir, name(relative));
  const before = lstatOrNull(path);
  if (before && !before.isFile()) return false;
  const temporary = `${path}.${randomBytes(8).toString('hex')}.tmp`;
  // O_EXCL: the name must not exist, not even as a link (that would be written through).
  const fd = openSync(
    temporary,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    0o600,
  );
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  try {
    // The way is checked again just before the rename: a folder swapped for a link is refused.
    if (typeof folderOf(base, relative, false) === 'string') throw new Error('the folder moved');
    renameSync(temporary, path);
    return true;
  } catch {
    try {
      unlinkSync(temporary);
    } catch {
      // gone already
    }
    return false;
  }
}

/**
 * Removes `relative` only when it is still a regular file holding exactly what Relais wrote
 * (`expected`); a skill's folder goes with it when nothing else is left in it. A link is never
 * followed nor removed.
 */
export function removeConfined(base: string, relative: string, expected: string): boolean {
  const found = onDisk(base, relative);
  if (found.state !== 'file' || found.sha256 !== expected) return false;
  const folder = folderOf(base, relative, false);
  if (typeof folder === 'string') return false;
  unlinkSync(join(folder.dir, name(relative)));
  if (relative.split('/').length > 2) {
    try {
      rmdirSync(folder.dir);
    } catch {
      // not empty: the person's own files stay
    }
  }
  return true;
}
