import { spawn } from 'node:child_process';

/**
 * Waits on a pipe only the daemon holds open. The kernel closes it when the daemon dies, however it
 * dies (kill -9, out of memory): the shell's `read` then returns and it kills every cage under the
 * daemon's folder, so what sessions started (tools included, double-forked or not) ends with the
 * daemon rather than at its next start.
 */
const KILL_CAGES_ON_EOF =
  'read _; for kill in "$0"/*/cgroup.kill; do [ -f "$kill" ] && echo 1 > "$kill"; done 2>/dev/null';

export interface CageWatchdog {
  /** Ends the watchdog without touching the cages (a clean shutdown has ended them already). */
  stop(): void;
}

export function startCageWatchdog(base: string): CageWatchdog {
  const child = spawn('/bin/sh', ['-c', KILL_CAGES_ON_EOF, base], {
    // Its own group: a Ctrl-C in the daemon's terminal leaves it to the daemon's own shutdown.
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  child.on('error', () => undefined);
  child.stdin.on('error', () => undefined);
  // Neither the watchdog nor its pipe keeps the daemon running.
  child.unref();
  (child.stdin as unknown as { unref?: () => void }).unref?.();
  return {
    stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}
