import { chmodSync, lstatSync, mkdirSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isWithin } from '../permissions/engine/glob.js';
import type { Circles } from './circles.js';
import { maskedLaunchScript } from './name-masks.js';

/**
 * Codex runs every command through a shell (`/bin/bash -lc`, or a shell the model names: bash, sh
 * or zsh by path), inside the app server's jail, where the subscription's CODEX_HOME (its sign-in,
 * its threads) must stay readable for the app server itself. So in that jail each shell's path
 * holds a wrapper instead: it runs the same shell in a jail of its own (nested bubblewrap) where
 * CODEX_HOME is an empty folder, the app server's processes are out of sight (a PID namespace of
 * its own, so no `/proc/<pid>/root`), and the protected names are found again at that moment.
 */

/** Where the real binaries lie inside the app server's jail (its root is bubblewrap's tmpfs). */
const ASIDE = '/.relais';
/** The real POSIX sh inside the app server's jail, where `/bin/sh` is the wrapper. */
export const JAIL_SH = `${ASIDE}/sh`;
/** The folders a shell is looked for in, and the names Codex runs as a shell (dash: Debian's sh). */
const SHELL_FOLDERS = ['/bin', '/usr/bin', '/usr/local/bin', '/sbin', '/usr/sbin'];
const SHELL_NAMES = ['bash', 'sh', 'dash', 'zsh', 'ksh', 'mksh', 'ash'];

/**
 * Whether a command Codex asks for runs through one of the wrapped shells. The model may name any
 * shell by path (`exec_command`'s `shell`): one it placed in a writable folder would run in the
 * app server's jail, CODEX_HOME in sight, so such a command is refused when it is asked.
 */
export function runsWrappedShell(command: string): boolean {
  const program = /^(\S+) /.exec(command)?.[1] ?? '';
  return SHELL_FOLDERS.some((folder) =>
    SHELL_NAMES.some((name) => program === `${folder}/${name}`),
  );
}

export interface CommandJailInput {
  circles: Circles;
  codexHome: string;
  /** A folder of the session only the daemon writes (bound read-only in the jail). */
  wrapperFolder: string;
  bwrap: string;
  find: string;
}

interface Shell {
  /** Its path in the jail (`/bin/bash` and `/usr/bin/bash` are two mounts of one file). */
  path: string;
  /** The file it is on this machine. */
  real: string;
}

/** Every shell file of the usual folders, as the jail shows it; a link's target instead of the link. */
function shellsOf(circles: Circles): Shell[] {
  const shown = (path: string): boolean => circles.readable.some((root) => isWithin(path, root));
  const shells = new Map<string, Shell>();
  for (const folder of SHELL_FOLDERS)
    for (const name of SHELL_NAMES) {
      const path = join(folder, name);
      try {
        if (!statSync(path).isFile()) continue;
        const real = realpathSync(path);
        const inJail = lstatSync(path).isSymbolicLink() ? real : path;
        if (shown(inJail)) shells.set(inJail, { path: inJail, real });
      } catch {
        // No such shell here.
      }
    }
  return [...shells.values()];
}

/**
 * The app server's jail arguments that put a wrapper on each shell (written into `wrapperFolder`),
 * the real shells, `find` and the folder itself set aside read-only. Throws when no POSIX sh runs
 * the wrapper.
 */
export function commandJailArguments(input: CommandJailInput): string[] {
  const shells = shellsOf(input.circles);
  const reals = [...new Set(shells.map((shell) => shell.real))];
  const aside = (real: string): string => `${ASIDE}/real-${reals.indexOf(real)}`;
  const sh = realpathSync('/bin/sh');
  const nested = [
    '--die-with-parent',
    '--unshare-pid',
    // bubblewrap keeps root's capabilities when run as root: a command could undo its mounts
    // (or open any file of a filesystem by handle).
    '--cap-drop',
    'ALL',
    '--ro-bind',
    '/',
    '/',
    // The jail's own devices (its pseudo-terminals among them), which a plain bind would refuse.
    '--dev-bind',
    '/dev',
    '/dev',
    '--proc',
    '/proc',
    // A /tmp of the command's own: the app server's is shared with nothing (a shell copied
    // there could otherwise be named as the next command's shell).
    '--tmpfs',
    '/tmp',
    ...input.circles.writable.flatMap((folder) => ['--bind', folder, folder]),
    ...['--tmpfs', input.codexHome, '--remount-ro', input.codexHome],
    ...shells.flatMap((shell) => ['--ro-bind', aside(shell.real), shell.path]),
  ];
  const script = maskedLaunchScript({
    find: `${ASIDE}/find`,
    // The session's own folders, where a file may appear mid-session; the toolchains' names were
    // masked as the app server's jail started (a `.pyenv` alone walks 130,000 entries).
    roots: [...input.circles.writable, ...input.circles.unwritable],
    names: input.circles.names,
    bwrap: input.bwrap,
    before: nested,
    command: '"$0" "$@"',
  });
  mkdirSync(input.wrapperFolder, { recursive: true, mode: 0o700 });
  const wrapper = join(input.wrapperFolder, 'shell');
  writeFileSync(wrapper, `#!${JAIL_SH}\n${script}\n`, { mode: 0o755, flag: 'wx' });
  chmodSync(wrapper, 0o755);
  return [
    ...reals.flatMap((real) => ['--ro-bind', real, aside(real)]),
    ...['--ro-bind', sh, JAIL_SH],
    ...['--ro-bind', input.find, `${ASIDE}/find`],
    ...shells.flatMap((shell) => ['--ro-bind', wrapper, shell.path]),
    ...['--ro-bind', input.wrapperFolder, input.wrapperFolder],
  ];
}
