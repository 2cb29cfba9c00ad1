import type { FileHandle } from 'node:fs/promises';
import type { FileCursor, FileIdentity } from './file-cursors.js';
import { tailHash } from './transcript-file.js';

/** A transcript file's identity as stat gives it, compared with what its cursor recorded. */
export interface Identity {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
}

export function unchanged(cursor: FileIdentity, info: Identity): boolean {
  return (
    cursor.dev === info.dev &&
    cursor.ino === info.ino &&
    cursor.size === info.size &&
    cursor.mtime_ms === info.mtimeMs
  );
}

/** Why a known file must be read from its start again, or null when it only grew. */
export async function resetReason(
  cursor: FileCursor,
  info: Identity,
  handle: FileHandle,
): Promise<'replaced' | 'truncated' | 'rewritten' | null> {
  if (cursor.dev !== info.dev || cursor.ino !== info.ino) return 'replaced';
  if (info.size < cursor.offset) return 'truncated';
  if ((await tailHash(handle, cursor.offset)) !== cursor.tail_hash) return 'rewritten';
  return null;
}

export function parseState(text: string | null): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
