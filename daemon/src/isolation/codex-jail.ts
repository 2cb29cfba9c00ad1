import { existsSync, lstatSync } from 'node:fs';
import { isWithin } from '../permissions/engine/glob.js';
import type { Circles } from './circles.js';
import { commandJailArguments, JAIL_SH } from './codex-shell.js';
import { maskedLaunchScript } from './name-masks.js';

export interface JailInput {
  circles: Circles;
  /** The subscription's CODEX_HOME (inside the data folder): Codex keeps its threads there. */
  codexHome: string;
  /** The folder of the Codex binary, read-only. */
  binaryFolder: string;
  cwd: string;
  /** The session's network gate socket: the jail gets a network of its own, bridged to it. */
  gateSocket?: string | null;
  /** A folder of the session only the daemon writes: the command wrapper goes there. */
  wrapperFolder: string;
  bwrap: string;
  find: string;
}

/** Where the app server and its commands find the gate inside the jail. */
export const JAIL_PROXY = 'http://127.0.0.1:3128';

/** Inside the jail: socat carries 127.0.0.1:3128 to the gate's socket, then the app server starts. */
const BRIDGE =
  'socat TCP-LISTEN:3128,bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:"$0" 2>/dev/null & exec "$@"';

/** The command bubblewrap runs: the app server, behind the bridge when the jail has no network. */
export function jailedCommand(gateSocket: string | null, binary: string, args: string[]): string[] {
  return gateSocket === null
    ? [binary, ...args]
    : [JAIL_SH, '-c', BRIDGE, gateSocket, binary, ...args];
}

/**
 * Codex's own sandbox reads the whole disk, and a command a person approved runs outside it
 * (measured with 0.171.0): the app server itself starts inside bubblewrap, with the same circles
 * as Claude's commands, and each command it runs in a jail of its own within (codex-shell.ts).
 * Mount order is bubblewrap's: a later mount covers an earlier one; the protected names come
 * last, found by `find` as the jail starts (name-masks.ts).
 */
export function codexJailArguments(input: JailInput): string[] {
  const { circles } = input;
  const args = [
    '--die-with-parent',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    ...(input.gateSocket ? ['--unshare-net'] : []),
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--tmpfs',
    '/tmp',
  ];
  for (const folder of [...circles.readable, input.binaryFolder])
    if (existsSync(folder)) args.push('--ro-bind', folder, folder);
  for (const folder of circles.writable) args.push('--bind', folder, folder);
  if (!circles.readable.some((root) => isWithin(input.bwrap, root)))
    args.push('--ro-bind', input.bwrap, input.bwrap);
  for (const path of hiddenTargets(circles)) args.push(...mask(path));
  // The subscription's folder alone, re-opened inside the hidden data folder.
  args.push('--bind', input.codexHome, input.codexHome);
  args.push(
    ...commandJailArguments({
      circles,
      codexHome: input.codexHome,
      wrapperFolder: input.wrapperFolder,
      bwrap: input.bwrap,
      find: input.find,
    }),
  );
  args.push('--chdir', input.cwd);
  return args;
}

/** The jail as one `sh -c` launch: the names found, then bubblewrap, then `command`. */
export function codexJailLaunch(input: JailInput, command: string[]): string[] {
  const script = maskedLaunchScript({
    find: input.find,
    roots: input.circles.masked,
    names: input.circles.names,
    bwrap: input.bwrap,
    before: codexJailArguments(input),
    command: '"$@"',
  });
  return ['-c', script, 'relais-codex-jail', ...command];
}

/** A folder becomes an empty read-only tmpfs, a file an empty read-only file. */
function mask(path: string): string[] {
  let folder: boolean;
  try {
    folder = lstatSync(path).isDirectory();
  } catch {
    return []; // Gone since it was found: nothing left to hide.
  }
  return folder ? ['--tmpfs', path, '--remount-ro', path] : ['--ro-bind', '/dev/null', path];
}

/** The literal hidden paths that exist and lie inside something exposed (the rest is not there anyway). */
function hiddenTargets(circles: Circles): string[] {
  const exposed = [...circles.readable, ...circles.writable];
  const within = (path: string): boolean => exposed.some((root) => isWithin(path, root));
  const literal = circles.hidden.filter((path) => !/[*?[{]/.test(path));
  return [...new Set(literal)].filter((path) => {
    try {
      if (lstatSync(path).isSymbolicLink()) return false;
    } catch {
      return false;
    }
    return within(path);
  });
}
