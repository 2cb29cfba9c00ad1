import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

/**
 * One daemon per data folder. A second one on the same folder would take the first one's running
 * sessions for leftovers of a crash and end them, share its cages and write the same database; it
 * must refuse to start instead, before it touches anything.
 *
 * The lock is an exclusive SQLite transaction on a file of its own, never committed: the kernel
 * drops the lock when the holder dies, however it dies, so a crashed daemon never leaves a stale
 * lock behind (a pid file would need guessing whether its pid is still the daemon).
 */
export interface DataFolderLock {
  release(): void;
}

export class DataFolderBusyError extends Error {}

export function lockDataFolder(home: string): DataFolderLock {
  const db = new Database(join(home, 'daemon.lock'), { timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
  } catch (error: unknown) {
    db.close();
    if ((error as { code?: unknown }).code === 'SQLITE_BUSY')
      throw new DataFolderBusyError(busyMessage(home));
    throw error;
  }
  let held = true;
  return {
    release() {
      if (!held) return;
      held = false;
      db.close();
    },
  };
}

function busyMessage(home: string): string {
  const other = runningDaemon(home);
  const who = other ? ` (pid ${other.pid}, ${other.url})` : '';
  return `another Relais daemon uses the data folder ${home}${who}. Stop it first, or give this one another folder with RELAIS_HOME.`;
}

/** What the other daemon wrote about itself, for the message only: shown, never acted on. */
function runningDaemon(home: string): { pid: number; url: string } | null {
  try {
    const record = JSON.parse(readFileSync(join(home, 'daemon.json'), 'utf8')) as unknown;
    if (typeof record !== 'object' || record === null) return null;
    const { pid, base_url: url } = record as Record<string, unknown>;
    if (
      !Number.isSafeInteger(pid) ||
      typeof url !== 'string' ||
      !/^http:\/\/[\w.:[\]-]{1,80}$/.test(url)
    )
      return null;
    return { pid: pid as number, url };
  } catch {
    return null;
  }
}
