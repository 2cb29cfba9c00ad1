import type { Containment } from './containment.js';
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

/** What names the processes of one session: its group, its environment tag, its cage. */
export interface SessionProcesses {
  pgid: number | null;
  tagName: string;
  tagValue: string;
  containment: Containment;
}

/** Every process of the session still there: the cage's members and the tagged ones. */
export function membersOf(session: SessionProcesses): number[] {
  const members = new Set(session.containment.members(session.tagValue));
  for (const pid of findProcessesByEnv(session.tagName, session.tagValue)) members.add(pid);
  return [...members];
}

/** Signals the group and every member; returns how many were signalled. */
export function signalSession(session: SessionProcesses, signal: NodeJS.Signals): number {
  let count = 0;
  if (session.pgid !== null && killProcessGroup(session.pgid, signal)) count++;
  for (const pid of membersOf(session)) {
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
 * Ends every process of the session: SIGTERM first, so that tools clean up after themselves (git
 * and pyenv remove their lock files on SIGTERM, never on SIGKILL), then SIGKILL to whatever is still
 * there after `termGraceMs`, the cage's members at once. Resolves with how many were signalled, once
 * the cage is empty and removed.
 */
export async function endSession(session: SessionProcesses, termGraceMs: number): Promise<number> {
  const signalled = signalSession(session, 'SIGTERM');
  if (signalled > 0) {
    const until = Date.now() + termGraceMs;
    while (Date.now() < until && membersOf(session).some(isAlive)) await pause(20);
  }
  // Always: a member may have scrubbed its tag and left the group, and only the cage knows it.
  session.containment.killAll(session.tagValue);
  signalSession(session, 'SIGKILL');
  // The kernel empties a killed cage within moments; a cage is removable only once it is empty.
  const until = Date.now() + 2000;
  while (!session.containment.release(session.tagValue) && Date.now() < until) await pause(20);
  return signalled;
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
