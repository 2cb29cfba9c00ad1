import { readFileSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { LIBRARY_CONTENT_MAX, LibraryName, type LibraryKind } from '../../../contract/library.js';
import { apiError } from '../http/errors.js';

export interface Imported {
  name: string;
  content: string;
}

/**
 * Reads a command (a .md file) or a skill (a folder holding SKILL.md, or that file) from this
 * machine. Only Markdown text under the size limit, never inside Relais' own data folder.
 */
export function importFrom(kind: LibraryKind, given: string, dataHome: string): Imported {
  const refuse = (why: string): never => {
    throw apiError('invalid_import', `Cannot import ${given}: ${why}.`);
  };
  if (!isAbsolute(given) || given.includes('\0')) refuse('give an absolute path');
  let path = resolve(given);
  const inData = relative(resolve(dataHome), path);
  if (inData === '' || (!inData.startsWith('..') && !isAbsolute(inData)))
    refuse("it is inside Relais' data folder");
  let info = statOf(path) ?? refuse('no such file or folder');
  if (info.isDirectory()) {
    if (kind === 'command') refuse('a command is one .md file');
    path = join(path, 'SKILL.md');
    info = statOf(path) ?? refuse('the folder holds no SKILL.md');
  }
  if (!info.isFile()) refuse('not a regular file');
  if (!path.toLowerCase().endsWith('.md')) refuse('only Markdown (.md) files are imported');
  if (info.size > LIBRARY_CONTENT_MAX) refuse(`larger than ${LIBRARY_CONTENT_MAX} bytes`);
  const bytes = readFileSync(path);
  const content = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (content.includes('\0') || content.includes('\uFFFD')) refuse('not UTF-8 text');
  const name = kind === 'skill' ? basename(dirname(path)) : basename(path).replace(/\.md$/i, '');
  if (!LibraryName.safeParse(name).success)
    refuse(`"${name}" is not a usable name (ASCII letters, digits, "-", "_"); give one with name`);
  return { name, content };
}

function statOf(path: string) {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}
