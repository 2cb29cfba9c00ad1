import { existsSync } from 'node:fs';

/**
 * util-linux's setpriv, from a fixed system path (never looked up on PATH, which an agent's
 * environment may name): it asks the kernel to SIGKILL the process when its parent, the daemon,
 * dies, even by kill -9, then becomes the command (same pid).
 */
const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((path) => existsSync(path)) ?? null;

/**
 * The command line that runs `binary args` bound to the daemon's life: an agent or server the
 * daemon can no longer talk to has no one to ask permission and no one to report to, so it ends with
 * the daemon instead of working on unwatched until the next start finds it. Without setpriv (another
 * OS), the command as given; the next start ends what is left (sessions/session-lives.ts).
 */
export function boundToDaemon(binary: string, args: string[]): { binary: string; args: string[] } {
  if (SETPRIV === null) return { binary, args };
  return { binary: SETPRIV, args: ['--pdeathsig', 'KILL', '--', binary, ...args] };
}

/** True when processes started through boundToDaemon end with the daemon. */
export const diesWithDaemon = SETPRIV !== null;
