import { existsSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { isWithin } from '../permissions/engine/glob.js';
import type { PermissionMode, RuleSet } from '../permissions/engine/index.js';
import type { ToolchainMasks } from './toolchain-masks.js';

/**
 * What the operating system lets a session's commands see, derived from the rules the engine uses.
 * The choice: expose only what a session needs (the system's and the toolchains' folders read-only,
 * its own folders read-write), then mask the zero-access names inside what is exposed. A name
 * pattern (`.env*`, `*.pem`) cannot be hidden path by path across a whole disk; inside the
 * session's folders it can, when each command starts.
 */
export interface Circles {
  /** Folders commands may read (everything else is out of sight). */
  readable: string[];
  /** Folders commands may write (none in read-only mode). */
  writable: string[];
  /**
   * The session's own folders when it may not write them (read-only mode): Claude's sandbox keeps
   * its working folder writable unless a write there is denied by name.
   */
  unwritable: string[];
  /** Absolute paths and globs no command may read, list or write, even inside the above. */
  hidden: string[];
  /** The zero-access names (`.env`, `*.pem`), masked at any depth of `masked`. */
  names: string[];
  /** The session's own folders and the toolchains outside the system's folders. */
  masked: string[];
}

export interface CirclesInput {
  rules: RuleSet;
  /** The daemon's data folder: always hidden. */
  dataDir: string;
  /** What `~` means in the rules. */
  homeDir: string;
  /** The agents' HOME: the rules' `~/` circles are hidden there as well. */
  agentHomeDir: string;
  cwd: string;
  permissionMode: PermissionMode;
  /** The session's private temporary folder. */
  tempDir: string;
  /** Writable folders beyond the working folder (none today; the rules may name some later). */
  extraWritable?: readonly string[];
  /** Defaults to the daemon's PATH: its folders are the toolchains commands need. */
  path?: string;
  /** The names already found in the toolchains; without it, they are masked by pattern. */
  toolchainMasks?: ToolchainMasks;
}

/** System folders read-only, where they exist. */
const SYSTEM_FOLDERS = [
  '/usr',
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/etc',
  '/opt',
  '/nix',
  '/snap',
];

export function sessionCircles(input: CirclesInput): Circles {
  const own = [
    input.cwd,
    ...(input.permissionMode === 'read_only' ? [] : (input.extraWritable ?? [])),
    input.tempDir,
  ].map((folder) => resolve(folder));
  const writable = input.permissionMode === 'read_only' ? [] : own;
  const guarded = [input.dataDir, input.homeDir, input.agentHomeDir].map((p) => resolve(p));
  const toolchains = toolchainFolders(
    input.path ?? process.env['PATH'] ?? '',
    guarded,
    resolve(input.dataDir),
  );
  const readable = unique([
    ...SYSTEM_FOLDERS.filter((folder) => existsSync(folder)),
    ...resolverFolder(),
    ...toolchains,
    ...own,
  ]);
  // Names are masked wherever a person's files may be: the session's folders and the toolchains
  // outside the system's (`~/.nvm`, a project's `bin` on PATH).
  const maskedToolchains = unique(
    toolchains.filter((folder) => !SYSTEM_FOLDERS.some((system) => isWithin(folder, system))),
  ).filter((folder) => !own.includes(folder));
  const masked = unique([...own, ...maskedToolchains]);
  return {
    readable,
    writable,
    unwritable: input.permissionMode === 'read_only' ? own : [],
    hidden: hiddenPaths(input, unique(own), maskedToolchains),
    names: zeroAccessNames(input),
    masked,
  };
}

/** The zero-access circles of the rules, and the data folder, as absolute paths and globs. */
function hiddenPaths(input: CirclesInput, own: string[], toolchains: string[]): string[] {
  const homes = unique([resolve(input.homeDir), resolve(input.agentHomeDir)]);
  const hidden: string[] = [resolve(input.dataDir)];
  const names = zeroAccessNames(input);
  const found = input.toolchainMasks?.paths(toolchains, names) ?? null;
  // The toolchains' names as found, or as patterns searched at every command until they are.
  const masked = found === null ? [...own, ...toolchains] : own;
  if (found !== null) hidden.push(...found);
  for (const rule of input.rules.rules) {
    if (rule.kind !== 'zero_access') continue;
    for (const glob of rule.paths) {
      const body = glob.replace(/\/+$/, '');
      if (body === '~' || body.startsWith('~/')) {
        for (const home of homes) hidden.push(join(home, body.slice(2)));
      } else if (isAbsolute(body)) {
        hidden.push(body);
      } else if (!body.includes('/') && !glob.endsWith('/')) {
        // A name: masked at any depth of every folder the session owns.
        for (const root of masked) hidden.push(`${root}/**/${body}`);
      } else {
        hidden.push(join(input.cwd, body.replace(/^(\.\/)+/, '')));
      }
    }
  }
  return unique(hidden);
}

function zeroAccessNames(input: CirclesInput): string[] {
  return unique(
    input.rules.rules.flatMap((rule) =>
      rule.kind === 'zero_access' ? rule.paths.filter((p) => !p.includes('/')) : [],
    ),
  );
}

/** /etc/resolv.conf often points into /run: that one folder, not the rest of /run. */
function resolverFolder(): string[] {
  try {
    const target = dirname(realpathSync('/etc/resolv.conf'));
    return target === '/etc' ? [] : [target];
  } catch {
    return [];
  }
}

/**
 * The folders of PATH, each with its parent when it is a `bin` (a toolchain's libraries sit
 * beside it: `~/.nvm/versions/node/v20/lib`). Never a home, the data folder or a folder that holds
 * one of them (`/` among them), nor anything inside the data folder.
 */
function toolchainFolders(pathVariable: string, homes: string[], dataDir: string): string[] {
  const folders: string[] = [];
  for (const entry of pathVariable.split(':')) {
    if (!isAbsolute(entry)) continue;
    let folder: string;
    try {
      folder = realpathSync(entry);
    } catch {
      continue;
    }
    const candidate = folder.endsWith('/bin') ? dirname(folder) : folder;
    const safe = (f: string): boolean =>
      !homes.some((home) => isWithin(home, f)) && !isWithin(f, dataDir);
    if (safe(candidate)) folders.push(candidate);
    else if (safe(folder)) folders.push(folder);
  }
  return folders;
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}
