import { randomInt } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * Shell that starts one long `sleep` by each way out a tool could take: a double fork, a new session,
 * a scrubbed environment, nohup, disown, SIGTERM ignored, and these combined. Each sleep's duration
 * carries `marker`, so that the test finds them by command line, whatever they did to their tags.
 */
export function escapingCommand(marker: string): string {
  const sleep = (n: number): string => `sleep 60${n}.${marker}`;
  return [
    `(sh -c '${sleep(1)} >/dev/null 2>&1 &' &)`,
    `setsid -f ${sleep(2)} >/dev/null 2>&1`,
    `env -i sh -c '${sleep(3)} >/dev/null 2>&1 &'`,
    `nohup ${sleep(4)} >/dev/null 2>&1 &`,
    `${sleep(5)} >/dev/null 2>&1 & disown`,
    `(trap '' TERM; exec ${sleep(6)}) >/dev/null 2>&1 &`,
    `setsid -f env -i sh -c "trap '' TERM; ${sleep(7)}" >/dev/null 2>&1`,
    `(setsid -f env -i sh -c '${sleep(8)} &' &) >/dev/null 2>&1`,
  ]
    .map((part) => (part.endsWith('&') ? `${part} ` : `${part}; `))
    .join('')
    .concat('true');
}

export const ESCAPES = 8;

/** A marker no other test run uses (the fraction of a second each sleep lasts). */
export function newMarker(): string {
  return String(randomInt(100_000, 999_999));
}

function allPids(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number);
}

/** The running processes whose command line carries the marker. */
export function escapees(marker: string): number[] {
  return allPids().filter((pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
      if (stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z') return false;
      return readFileSync(`/proc/${pid}/cmdline`, 'latin1')
        .split('\0')
        .some((arg) => arg.startsWith('60') && arg.endsWith(`.${marker}`));
    } catch {
      return false; // Gone between the scan and the read.
    }
  });
}
