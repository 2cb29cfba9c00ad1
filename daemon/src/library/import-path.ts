import { lstat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { LIBRARY_CONTENT_MAX, LibraryName, type LibraryKind } from '../../../contract/library.js';
import { fenceOf, inClosedFolder, RefusedPath, type Bounds } from '../fs/fence.js';
import { readInside } from '../fs/untrusted-file.js';
import { apiError } from '../http/errors.js';

export interface Imported {
  name: string;
  content: string;
}

/**
 * Reads a command (a .md file) or a skill (a folder holding SKILL.md, or that file) from this
 * machine: a folder the person names, often a cloned repository, which keeps whatever links it
 * was given. Only Markdown text under the size limit; no link is followed (neither the file, nor
 * a skill folder that is one); the real path is never in Relais' data folder nor a zero-access
 * circle; one hard link only.
 */
export async function importFrom(
  kind: LibraryKind,
  given: string,
  bounds: Bounds,
): Promise<Imported> {
  const refuse = (why: string): never => {
    throw apiError('invalid_import', `Cannot import ${given}: ${why}.`);
  };
  if (!isAbsolute(given) || given.includes('\0')) refuse('give an absolute path');
  let path = resolve(given);
  if (await inClosedFolder(path, bounds)) refuse("it is inside Relais' data folder");
  const info = (await lstatOrNull(path)) ?? refuse('no such file or folder');
  if (info.isSymbolicLink()) refuse('it is a symbolic link, and links are not followed');
  if (info.isDirectory()) {
    if (kind === 'command') refuse('a command is one .md file');
    path = join(path, 'SKILL.md');
    if (!(await lstatOrNull(path))) refuse('the folder holds no SKILL.md');
  }
  if (!path.toLowerCase().endsWith('.md')) refuse('only Markdown (.md) files are imported');
  let bytes: Buffer;
  try {
    const fence = await fenceOf(dirname(path), bounds);
    bytes = await readInside(fence, path, { maxBytes: LIBRARY_CONTENT_MAX });
  } catch (error: unknown) {
    if (error instanceof RefusedPath) refuse(error.message);
    // Gone meanwhile, or unreadable: the person's file, told as such (never a 500).
    if ((error as NodeJS.ErrnoException).code) refuse((error as Error).message);
    throw error;
  }
  const content = new TextDecoder('utf-8', { fatal: false }).decode(bytes!);
  if (content.includes('\0') || content.includes('\uFFFD')) refuse('not UTF-8 text');
  const name = kind === 'skill' ? basename(dirname(path)) : basename(path).replace(/\.md$/i, '');
  if (!LibraryName.safeParse(name).success)
    refuse(`"${name}" is not a usable name (ASCII letters, digits, "-", "_"); give one with name`);
  return { name, content };
}

async function lstatOrNull(path: string) {
  try {
    return await lstat(path);
  } catch {
    return null;
  }
}
