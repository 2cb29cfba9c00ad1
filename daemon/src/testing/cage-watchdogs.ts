import { readdirSync, readFileSync } from 'node:fs';
import { cagesFolderName } from '../processes/containment.js';

/** The cage watchdogs of one data folder (processes/cage-watchdog.ts), found by their command line. */
export function cageWatchdogsOf(home: string): number[] {
  const folder = cagesFolderName(home);
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const args = readFileSync(`/proc/${entry}/cmdline`, 'latin1').split('\0');
        return (
          args.some((arg) => arg.includes('cgroup.kill')) &&
          args.some((arg) => arg.endsWith(folder))
        );
      } catch {
        return false; // Gone between the scan and the read.
      }
    })
    .map(Number);
}

/**
 * Kills the watchdog of a daemon's cages, as a crash that takes the whole process tree at once
 * would: then nothing ends the daemon's sessions before its next start. Returns how many were found.
 */
export function killCageWatchdogs(home: string): number {
  const found = cageWatchdogsOf(home);
  for (const pid of found) process.kill(pid, 'SIGKILL');
  return found.length;
}
