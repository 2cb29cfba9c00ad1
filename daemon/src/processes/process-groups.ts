import { readdirSync, readFileSync } from 'node:fs';

/** Signals a whole process group; a group that is already gone is not an error. */
export function killProcessGroup(pgid: number, signal: NodeJS.Signals = 'SIGKILL'): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error: unknown) {
    // ESRCH: nothing left in the group.
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

/** True while the process runs; a zombie (dead, waiting to be reaped by its parent) is not alive. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error: unknown) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true; // No /proc: the signal probe above is all there is.
  }
}

/**
 * Processes whose environment carries `name=value` (Linux /proc). An agent's grandchildren may
 * leave its process group (a tool can start its own session), but they inherit the environment,
 * so the session tag still finds them.
 */
export function findProcessesByEnv(name: string, value: string): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return []; // No /proc (not Linux): the process-group kill is all there is.
  }
  const needle = `${name}=${value}`;
  const found: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let environ: string;
    try {
      environ = readFileSync(`/proc/${entry}/environ`, 'latin1');
    } catch {
      continue; // Gone meanwhile, or not ours to read.
    }
    if (environ.split('\0').includes(needle)) found.push(Number(entry));
  }
  return found;
}

/** Signals the group and every process still carrying the tag; returns how many were signalled. */
export function signalTagged(
  pgid: number | null,
  tagName: string,
  tagValue: string,
  signal: NodeJS.Signals,
): number {
  let count = 0;
  if (pgid !== null && killProcessGroup(pgid, signal)) count++;
  for (const pid of findProcessesByEnv(tagName, tagValue)) {
    try {
      process.kill(pid, signal);
      count++;
    } catch {
      // Exited between the scan and the signal.
    }
  }
  return count;
}

/**
 * Ends the group and the tagged processes: SIGTERM first, so that tools clean up after themselves
 * (git and pyenv remove their lock files on SIGTERM, never on SIGKILL), then SIGKILL whatever is
 * still there after `termGraceMs`. Resolves with how many were signalled.
 */
export async function endTagged(
  pgid: number | null,
  tagName: string,
  tagValue: string,
  termGraceMs: number,
): Promise<number> {
  const signalled = signalTagged(pgid, tagName, tagValue, 'SIGTERM');
  if (signalled === 0) return 0;
  const until = Date.now() + termGraceMs;
  while (Date.now() < until && findProcessesByEnv(tagName, tagValue).some(isAlive))
    await new Promise((resolve) => setTimeout(resolve, 20));
  // Always: a member of the group may have scrubbed its environment, and so its tag.
  signalTagged(pgid, tagName, tagValue, 'SIGKILL');
  return signalled;
}
