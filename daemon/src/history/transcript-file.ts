import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { Fence } from '../fs/fence.js';
import { openInside } from '../fs/untrusted-file.js';

/** Bytes read at once from a transcript. */
export const CHUNK_BYTES = 1024 * 1024;
/** Bytes before a file's read offset whose hash tells an in-place rewrite from an append. */
export const TAIL_BYTES = 256;

/** Bytes of a file held in memory: `bytes` were read at `position`. */
export interface Chunk {
  position: number;
  bytes: Buffer;
}

export type OpenedTranscript =
  { handle: FileHandle; info: Stats; first: Chunk | null } | { error: unknown };

/**
 * Opens a transcript within its folder's fence (see `openInside`: not a link, regular, one name;
 * a scan names a file reached through a link by its target's path), reads its identity and the chunk at `offset`. An
 * import opens the next file this way while it parses the current one, so the file system's
 * round trips (open, stat, read) overlap the parsing instead of following it. The caller closes
 * the handle.
 */
export async function openTranscript(
  fence: Fence,
  path: string,
  offset: number,
): Promise<OpenedTranscript> {
  let handle: FileHandle;
  let info: Stats;
  try {
    ({ handle, info } = await openInside(fence, path));
  } catch (error: unknown) {
    return { error };
  }
  try {
    if (offset >= info.size) return { handle, info, first: null };
    const bytes = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, info.size - offset));
    const { bytesRead } = await handle.read(bytes, 0, bytes.length, offset);
    return { handle, info, first: { position: offset, bytes: bytes.subarray(0, bytesRead) } };
  } catch (error: unknown) {
    void handle.close().catch(() => undefined);
    return { error };
  }
}

/** Closes an opened transcript nobody will read (an import stopped before reaching it). */
export function discard(opened: Promise<OpenedTranscript> | null): void {
  void opened?.then((o) => ('handle' in o ? o.handle.close() : undefined)).catch(() => undefined);
}

/**
 * Hash of the TAIL_BYTES before `offset`: from `held` when it holds them (the chunk just parsed),
 * otherwise read from the file.
 */
export async function tailHash(
  handle: FileHandle,
  offset: number,
  held: Chunk | null = null,
): Promise<string> {
  const length = Math.min(TAIL_BYTES, offset);
  const from = offset - length;
  if (held && from >= held.position && offset <= held.position + held.bytes.length)
    return sha1(held.bytes.subarray(from - held.position, offset - held.position));
  const buffer = Buffer.alloc(length);
  if (length) await handle.read(buffer, 0, length, from);
  return sha1(buffer);
}

/** The hash `tailHash` gives, of bytes in hand (at most the TAIL_BYTES before an offset). */
export const tailHashOf = (bytes: Buffer): string =>
  createHash('sha1')
    .update(bytes.subarray(Math.max(0, bytes.length - TAIL_BYTES)))
    .digest('hex');

const sha1 = (bytes: Buffer): string => createHash('sha1').update(bytes).digest('hex');
