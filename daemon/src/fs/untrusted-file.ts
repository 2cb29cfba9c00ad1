import { constants, type Stats } from 'node:fs';
import { lstat, open, readlink, realpath, type FileHandle } from 'node:fs/promises';
import { outOfBounds, RefusedPath, type Fence } from './fence.js';

export { RefusedPath };

export interface OpenedFile {
  handle: FileHandle;
  /** The opened file's own status (fstat): what was read is this file. */
  info: Stats;
  real: string;
}

export function kindOf(info: Stats): string {
  if (info.isSymbolicLink()) return 'a symbolic link';
  if (info.isDirectory()) return 'a directory';
  if (info.isFIFO()) return 'a FIFO';
  if (info.isSocket()) return 'a socket';
  return 'a device or other special file';
}

/**
 * Opens a regular file of an untrusted tree for reading. The path itself must not be a link (a walk
 * names a file it reached through one by its target's path); its real path (links above it and
 * `..` resolved) must be inside the fence; it must be a regular file with one name (a hard link's
 * other name may be anywhere); it is opened without following a link at its last step and without
 * waiting on a FIFO, and the opened file must be the one checked (same device and inode), so a
 * swap between the check and the open is refused. The caller closes the handle.
 */
export async function openInside(fence: Fence, path: string): Promise<OpenedFile> {
  if ((await lstat(path)).isSymbolicLink())
    throw new RefusedPath(path, 'a symbolic link: links are not followed here');
  const real = await realpath(path);
  const why = outOfBounds(fence, real);
  if (why) throw new RefusedPath(path, why);
  const checked = await lstat(real);
  if (!checked.isFile()) throw new RefusedPath(path, `not a regular file (${kindOf(checked)})`);
  const handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.dev !== checked.dev || info.ino !== checked.ino)
      throw new RefusedPath(path, 'changed while it was being opened');
    if (info.nlink > 1) throw new RefusedPath(path, 'has more than one hard link');
    const where = await openedPath(handle);
    const moved = where === null ? null : outOfBounds(fence, where);
    if (moved) throw new RefusedPath(path, `opened outside its fence (${moved})`);
    return { handle, info, real };
  } catch (error: unknown) {
    void handle.close().catch(() => undefined);
    throw error;
  }
}

/**
 * Where the kernel says an opened file is (Linux: /proc/self/fd), null where it cannot tell. A
 * folder on the way swapped for a link between the real-path check and the open would otherwise
 * pass: the inode check compares the file with itself once both calls went through the link.
 */
async function openedPath(handle: FileHandle): Promise<string | null> {
  try {
    return await readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    return null;
  }
}

/** The whole of a small regular file of an untrusted tree (refused above `maxBytes`). */
export async function readInside(
  fence: Fence,
  path: string,
  rules: { maxBytes: number },
): Promise<Buffer> {
  const { handle, info } = await openInside(fence, path);
  try {
    if (info.size > rules.maxBytes)
      throw new RefusedPath(path, `larger than ${rules.maxBytes} bytes`);
    const bytes = Buffer.alloc(info.size);
    const { bytesRead } = await handle.read(bytes, 0, info.size, 0);
    return bytes.subarray(0, bytesRead);
  } finally {
    await handle.close().catch(() => undefined);
  }
}
