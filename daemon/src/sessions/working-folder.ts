import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, sep } from 'node:path';
import { apiError } from '../http/errors.js';

/** System trees no agent may work in: their files are the kernel's and the devices'. */
const SYSTEM_TREES = ['/proc', '/sys', '/dev'];

const within = (path: string, root: string): boolean =>
  path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path; // A data folder not created yet cannot be reached through a link either.
  }
}

/**
 * Why a launch may not use `path` as working folder, or null when it may. Decided on the real path
 * (links and `..` resolved), so a link to the data folder is the data folder.
 */
export function workingFolderRefusal(
  path: string,
  dataHome: string,
  what = 'The working directory',
): string | null {
  if (!isAbsolute(path)) return `${what} ${path} is not an absolute path.`;
  let real: string;
  try {
    real = realpathSync(path);
    if (!statSync(real).isDirectory()) throw new Error('not a folder');
  } catch {
    return `${what} ${path} does not exist or is not a folder.`;
  }
  const shown = real === path ? path : `${path} (${real})`;
  if (real === '/') return `${what} ${shown} is the root of the file system.`;
  const home = realOrSelf(dataHome);
  if (within(real, home))
    return `${what} ${shown} is inside Relais's data folder, which holds the API key and the database.`;
  const tree = SYSTEM_TREES.find((root) => within(real, root));
  if (tree) return `${what} ${shown} is inside the system tree ${tree}.`;
  return null;
}

export function assertWorkingFolder(path: string, dataHome: string): void {
  const refusal = workingFolderRefusal(path, dataHome);
  if (refusal) throw apiError('invalid_cwd', refusal);
}
