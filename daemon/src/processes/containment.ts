import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startCageWatchdog, type CageWatchdog } from './cage-watchdog.js';
import { boundToDaemon } from './die-with-daemon.js';

/**
 * Where everything a session starts is kept, so that it can all be found and ended whatever it does
 * to its environment, session or process group.
 *
 * - `cgroup`: each session's agent starts inside a cgroup v2 of its own (a child of the daemon's
 *   cgroup). Every process it ever starts stays in it (a double fork, `setsid` or `env -i` change
 *   nothing), the kernel lists them (`cgroup.procs`) and ends them in one write (`cgroup.kill`).
 * - `tag`: no writable cgroup v2 (another OS, a cgroup that is not delegated to this user). The
 *   process group and the environment tag are what is left; a tool that scrubs both escapes. The
 *   diagnostics say so.
 */
export interface Containment {
  readonly mechanism: 'cgroup' | 'tag';
  /** One line for a person: where the cages are, or why there are none. */
  readonly detail: string;
  /** Makes the cage of a session; null when there are no cages. */
  prepare(sessionTag: string): string | null;
  /** The processes in the session's cage now (none without cages). */
  members(sessionTag: string): number[];
  /** SIGKILL to everything in the cage at once. */
  killAll(sessionTag: string): void;
  /** Removes the cage once it is empty; true when it is gone (or never was). */
  release(sessionTag: string): boolean;
  /** Cages left by an earlier run of this daemon (a crash): their session tags. */
  leftovers(): string[];
  /** Removes this daemon's folder of cages when none is left (on shutdown). */
  dispose(): void;
}

/** The shell line that moves itself into the cage, then becomes the agent (same pid). */
const ENTER_CAGE = 'echo $$ > "$0/cgroup.procs" && exec "$@"';

/** Starts `binary args` inside `cage`: the agent is in it before it can start anything. */
export function caged(
  cage: string | null,
  binary: string,
  args: string[],
): { binary: string; args: string[] } {
  const bound = boundToDaemon(binary, args);
  if (cage === null) return bound;
  return { binary: '/bin/sh', args: ['-c', ENTER_CAGE, cage, bound.binary, ...bound.args] };
}

/** The folder of one data folder's cages, under the daemon's own cgroup. */
export function cagesFolderName(home: string): string {
  return `relais-${createHash('sha256').update(home).digest('hex').slice(0, 12)}`;
}

/** Picks the strongest containment this machine gives the daemon, for the data folder `home`. */
export function detectContainment(home: string): Containment {
  const found = ownCgroup2();
  if (typeof found === 'string') return new TagContainment(found);
  // One folder per data folder: two daemons of one machine never touch each other's cages.
  const base = join(found.path, cagesFolderName(home));
  try {
    mkdirSync(base, { recursive: true });
    probe(base);
  } catch (error: unknown) {
    return new TagContainment(`cgroup v2 at ${found.path} is not usable: ${message(error)}`);
  }
  return new CgroupContainment(base);
}

/** A throwaway cage, entered by a real process: creating a folder is not proof that joining works. */
function probe(base: string): void {
  const cage = join(base, `probe-${process.pid}`);
  mkdirSync(cage, { recursive: true });
  try {
    const run = spawnSync('/bin/sh', ['-c', ENTER_CAGE, cage, '/bin/sh', '-c', 'exit 0'], {
      timeout: 5000,
      stdio: 'ignore',
    });
    if (run.status !== 0) throw new Error(`a process could not join ${cage}`);
  } finally {
    rmdirSync(cage);
  }
}

function ownCgroup2(): { path: string } | string {
  let mountinfo: string;
  let own: string;
  try {
    mountinfo = readFileSync('/proc/self/mountinfo', 'utf8');
    own = readFileSync('/proc/self/cgroup', 'utf8');
  } catch {
    return 'no /proc on this system';
  }
  // Fields: id parent major:minor root mount-point options … - fstype source super-options.
  const mount = mountinfo
    .split('\n')
    .map((line) => line.split(' - '))
    .find(([, tail]) => tail?.startsWith('cgroup2 '))?.[0]
    ?.split(' ')[4];
  const relative = own
    .split('\n')
    .find((line) => line.startsWith('0::'))
    ?.slice(3);
  if (!mount) return 'no cgroup v2 hierarchy is mounted';
  if (relative === undefined) return 'the daemon is in no cgroup v2';
  return { path: join(mount, relative) };
}

class CgroupContainment implements Containment {
  readonly mechanism = 'cgroup' as const;
  readonly detail: string;
  private readonly watchdog: CageWatchdog;

  constructor(private readonly base: string) {
    this.detail = `each session in a cgroup v2 of its own under ${base}`;
    this.watchdog = startCageWatchdog(base);
  }

  prepare(sessionTag: string): string {
    const cage = this.cageOf(sessionTag);
    mkdirSync(cage, { recursive: true });
    return cage;
  }

  members(sessionTag: string): number[] {
    try {
      return readFileSync(join(this.cageOf(sessionTag), 'cgroup.procs'), 'latin1')
        .split('\n')
        .filter((line) => line !== '')
        .map(Number);
    } catch {
      return [];
    }
  }

  killAll(sessionTag: string): void {
    try {
      writeFileSync(join(this.cageOf(sessionTag), 'cgroup.kill'), '1');
    } catch {
      // No cage (never made, or already released): nothing to kill.
    }
  }

  release(sessionTag: string): boolean {
    try {
      rmdirSync(this.cageOf(sessionTag));
      return true;
    } catch (error: unknown) {
      return (error as NodeJS.ErrnoException).code === 'ENOENT';
    }
  }

  leftovers(): string[] {
    try {
      return readdirSync(this.base, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name);
    } catch {
      return [];
    }
  }

  dispose(): void {
    this.watchdog.stop();
    try {
      rmdirSync(this.base);
    } catch {
      // A cage is still there (a process that would not die): the next start deals with it.
    }
  }

  private cageOf(sessionTag: string): string {
    // Tags are Relais' own ids; anything else must not name a folder outside the base.
    if (!/^[A-Za-z0-9_-]{1,100}$/.test(sessionTag))
      throw new Error(`bad session tag ${sessionTag}`);
    return join(this.base, sessionTag);
  }
}

class TagContainment implements Containment {
  readonly mechanism = 'tag' as const;
  readonly detail: string;

  constructor(reason: string) {
    this.detail = `process group and environment tag only (${reason})`;
  }

  prepare(): null {
    return null;
  }
  members(): number[] {
    return [];
  }
  killAll(): void {}
  release(): boolean {
    return true;
  }
  leftovers(): string[] {
    return [];
  }
  dispose(): void {}
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
