import { existsSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { compileGlob, isWithin } from '../permissions/engine/glob.js';
import type { Circles } from './circles.js';

/** How many entries of the session's folders are walked for protected names at the start. */
const WALK_LIMIT = 200_000;

export interface JailInput {
  circles: Circles;
  /** The subscription's CODEX_HOME (inside the data folder): Codex keeps its threads there. */
  codexHome: string;
  /** The folder of the Codex binary, read-only. */
  binaryFolder: string;
  cwd: string;
  /** The session's network gate socket: the jail gets a network of its own, bridged to it. */
  gateSocket?: string | null;
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
    : ['/bin/sh', '-c', BRIDGE, gateSocket, binary, ...args];
}

/**
 * Codex's own sandbox reads the whole disk, and a command a person approved runs outside it
 * (measured with 0.171.0): the app server itself starts inside bubblewrap, with the same circles
 * as Claude's commands. Mount order is bubblewrap's: a later mount covers an earlier one.
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
  for (const path of hiddenTargets(circles)) args.push(...mask(path));
  // The subscription's folder alone, re-opened inside the hidden data folder.
  args.push('--bind', input.codexHome, input.codexHome);
  args.push('--chdir', input.cwd);
  return args;
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

/** The hidden paths that exist and lie inside something exposed (the rest is not there anyway). */
function hiddenTargets(circles: Circles): string[] {
  const exposed = [...circles.readable, ...circles.writable];
  const within = (path: string): boolean => exposed.some((root) => isWithin(path, root));
  const literal = circles.hidden.filter((path) => !/[*?[{]/.test(path));
  const named = namedPaths(circles.masked, circles.names);
  return [...new Set([...literal, ...named])].filter((path) => {
    try {
      if (lstatSync(path).isSymbolicLink()) return false;
    } catch {
      return false;
    }
    return within(path);
  });
}

/** Every entry of the session's folders whose name is a zero-access name (links not followed). */
function namedPaths(roots: string[], names: string[]): string[] {
  const matchers = names.map((name) => compileGlob(name).re);
  const found: string[] = [];
  let seen = 0;
  const walk = (folder: string): void => {
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (++seen > WALK_LIMIT) return;
      const path = join(folder, entry.name);
      // A link is not masked (bubblewrap would mount on its target): what it points to is.
      if (entry.isSymbolicLink()) continue;
      if (matchers.some((m) => m.test(entry.name))) found.push(path);
      else if (entry.isDirectory()) walk(path);
    }
  };
  for (const root of roots) walk(root);
  return found;
}
