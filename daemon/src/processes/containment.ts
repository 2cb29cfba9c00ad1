import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { accessSync, constants as fs } from 'node:fs';
import { constants as os } from 'node:os';
import { delimiter, join } from 'node:path';
import { NAMESPACE_INIT, NAMESPACE_INIT_NAME } from './namespace-init.js';
import { endTagged, findProcessesByEnv, isAlive, signalTagged } from './process-groups.js';
import {
  allPids,
  namespacePids,
  pidNamespaceOf,
  processesInNamespace,
  readStat,
} from './proc-table.js';

export type ContainmentMechanism = 'pid-namespace' | 'none';

/** How sessions are contained on this machine, chosen once at start. */
export interface Containment {
  mechanism: ContainmentMechanism;
  /** The `unshare` command that opens a session's namespaces (empty for `none`). */
  command: string[];
  /** Shown by diagnostics: what was chosen, or why nothing could be. */
  detail: string;
}

export interface ContainedSpec {
  binary: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
}

/** The environment variable every process of the session inherits (the fallback's only trace). */
export interface SessionTag {
  name: string;
  value: string;
}

/** What the database keeps so that a restarted daemon finds a crashed run's leftovers. */
export type ContainerRecord =
  { mechanism: 'pid-namespace'; init_pid: number; init_start: number } | { mechanism: 'none' };

/** Every process a session started, whatever it did to its environment, session or group. */
export interface SessionContainer {
  readonly mechanism: ContainmentMechanism;
  /** The agent's pid as the daemon sees it, once known. */
  readonly agentPid: number | null;
  /** Resolves with the agent's pid once it runs; null when it never did. */
  readonly ready: Promise<number | null>;
  /** The pids of the session's processes still running. */
  members(): number[];
  /**
   * SIGTERM to every process of the session, SIGKILL `termGraceMs` later to what is left; resolves
   * with how many got the SIGTERM, once none of them runs.
   */
  end(termGraceMs: number): Promise<number>;
  /** SIGKILL to everything at once. */
  kill(): void;
  record(): ContainerRecord | null;
}

export interface ContainedChild {
  /** Its stdio pipes reach the agent itself. */
  child: ChildProcessWithoutNullStreams;
  container: SessionContainer;
  /** The agent's own exit, from the exit of the spawned process. */
  exitOf(
    code: number | null,
    signal: NodeJS.Signals | null,
  ): { code: number | null; signal: NodeJS.Signals | null };
}

// The fresh /proc needs a mount namespace of its own; `slave` keeps the machine's later mounts visible
// inside it without letting the session's mounts out.
const NAMESPACE_FLAGS = [
  '--pid',
  '--fork',
  '--kill-child',
  '--mount-proc',
  '--propagation',
  'slave',
];
const UNSHARE_VARIANTS: { flags: string[]; detail: string }[] = [
  {
    flags: NAMESPACE_FLAGS,
    detail: 'a PID namespace per session (unshare)',
  },
  {
    flags: ['--user', '--map-current-user', ...NAMESPACE_FLAGS],
    detail: 'a PID namespace per session, in a user namespace (unshare)',
  },
];
const PROBE_TIMEOUT_MS = 5000;
/** How long the processes of a session get between SIGTERM and SIGKILL to clean up after themselves. */
export const TERM_BEFORE_KILL_MS = 500;
/** How long the daemon looks for the namespace's init and agent after the spawn. */
const DISCOVERY_TIMEOUT_MS = 10_000;
/** One /proc scan serves every container still looking, at most this often. */
const SCAN_INTERVAL_MS = 50;
/** How far past its parent's pid a child is looked for at each tick. */
const CHILD_WINDOW = 48;
/** How long a SIGKILLed namespace may take to empty. */
const KILL_WAIT_MS = 2000;

/**
 * Chooses how to contain sessions: a PID namespace when `unshare` can open one here (as root, or in
 * a user namespace), else nothing more than the process group and the environment tag.
 */
export function detectContainment(mode: 'auto' | 'none' = 'auto'): Containment {
  if (mode === 'none')
    return { mechanism: 'none', command: [], detail: 'turned off (RELAIS_CONTAINMENT=none)' };
  const unshare = findExecutable('unshare');
  if (!unshare)
    return { mechanism: 'none', command: [], detail: 'unshare (util-linux) was not found' };
  let failure = '';
  for (const variant of UNSHARE_VARIANTS) {
    const probe = spawnSync(unshare, [...variant.flags, '/bin/sh', '-c', 'test "$$" = 1'], {
      timeout: PROBE_TIMEOUT_MS,
      encoding: 'utf8',
    });
    if (probe.status === 0)
      return {
        mechanism: 'pid-namespace',
        command: [unshare, ...variant.flags],
        detail: variant.detail,
      };
    failure ||= (probe.stderr || probe.error?.message || `exit ${probe.status}`).trim();
  }
  return {
    mechanism: 'none',
    command: [],
    detail: `unshare cannot open a PID namespace here: ${failure}`,
  };
}

let current: Containment | null = null;

/** The containment the daemon chose at start (detected on first use when nobody chose). */
export function currentContainment(): Containment {
  return (current ??= detectContainment());
}

export function useContainment(containment: Containment): void {
  current = containment;
}

/** Spawns the agent inside a container of its own; the fallback is its own process group. */
export function spawnContained(
  spec: ContainedSpec,
  options: { tag: SessionTag; termGraceMs?: number; containment?: Containment },
): ContainedChild {
  const { tag, termGraceMs = TERM_BEFORE_KILL_MS, containment = currentContainment() } = options;
  if (containment.mechanism === 'none') {
    const child = spawn(spec.binary, spec.args, {
      cwd: spec.cwd,
      env: spec.env,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    return {
      child,
      container: new GroupContainer(child.pid ?? null, tag),
      exitOf: (code, signal) => ({ code, signal }),
    };
  }
  const [unshare, ...flags] = containment.command as [string, ...string[]];
  const steps = String(Math.max(1, Math.ceil(termGraceMs / 50)));
  const child = spawn(
    unshare,
    [
      ...flags,
      '/bin/sh',
      '-c',
      NAMESPACE_INIT,
      NAMESPACE_INIT_NAME,
      steps,
      spec.binary,
      ...spec.args,
    ],
    { cwd: spec.cwd, env: spec.env, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const container = new NamespaceContainer(child.pid ?? null, null);
  child.once('exit', () => container.launcherExited());
  return { child, container, exitOf: exitThroughInit };
}

/** A container from a previous run of the daemon, found again by what the database kept. */
export function reattachContainer(
  record: ContainerRecord | null,
  tag: SessionTag,
): SessionContainer {
  if (record?.mechanism !== 'pid-namespace') return new GroupContainer(null, tag);
  const stat = readStat(record.init_pid);
  const namespace = pidNamespaceOf(record.init_pid);
  const sameInit =
    stat !== null &&
    stat.startTicks === record.init_start &&
    namespace !== null &&
    namespacePids(record.init_pid).at(-1) === 1;
  return new NamespaceContainer(
    null,
    sameInit ? { pid: record.init_pid, start: record.init_start, namespace } : null,
  );
}

/** The init exits with the agent's status, 128 + n for a signal n, like any shell. */
function exitThroughInit(
  code: number | null,
  signal: NodeJS.Signals | null,
): { code: number | null; signal: NodeJS.Signals | null } {
  if (code === null || code <= 128) return { code, signal };
  const name = Object.entries(os.signals).find(([, number]) => number === code - 128)?.[0];
  return name ? { code: null, signal: name as NodeJS.Signals } : { code, signal };
}

interface InitProcess {
  pid: number;
  start: number;
  namespace: string;
}

/** A PID namespace: nothing started inside can leave it, and its init's death ends all of it. */
class NamespaceContainer implements SessionContainer {
  readonly mechanism = 'pid-namespace';
  agentPid: number | null = null;
  readonly ready: Promise<number | null>;
  private launcherGone = false;

  constructor(
    private readonly launcherPid: number | null,
    private init: InitProcess | null,
  ) {
    this.ready = launcherPid === null ? Promise.resolve(null) : this.discover();
  }

  launcherExited(): void {
    this.launcherGone = true;
  }

  members(): number[] {
    if (!this.init) return [];
    return processesInNamespace(this.init.namespace).filter(isAlive);
  }

  async end(termGraceMs: number): Promise<number> {
    await this.ready;
    const init = this.init;
    if (!init) {
      this.kill();
      return 0;
    }
    // What starts after this scan dies with the init all the same.
    const others = this.members().filter((pid) => pid !== init.pid);
    let signalled = 0;
    for (const pid of others) if (signal(pid, 'SIGTERM')) signalled++;
    await until(() => !others.some(isAlive), termGraceMs);
    this.kill();
    await until(() => !this.initRuns(init), KILL_WAIT_MS);
    return signalled;
  }

  kill(): void {
    if (this.init && this.initRuns(this.init)) signal(this.init.pid, 'SIGKILL');
    // Without a known init, unshare's --kill-child takes the init down with it.
    else if (this.launcherPid !== null && !this.launcherGone) signal(this.launcherPid, 'SIGKILL');
  }

  record(): ContainerRecord | null {
    return this.init
      ? { mechanism: 'pid-namespace', init_pid: this.init.pid, init_start: this.init.start }
      : null;
  }

  private initRuns(init: InitProcess): boolean {
    const stat = readStat(init.pid);
    return stat !== null && stat.startTicks === init.start && stat.state !== 'Z';
  }

  /** unshare forks the init (PID 1 inside), which forks the agent (PID 2 inside). */
  private discover(): Promise<number | null> {
    const deadline = Date.now() + DISCOVERY_TIMEOUT_MS;
    let ticks = 0;
    return new Promise((resolve) =>
      scanner.watch((pids) => {
        // Now and then, the lower pids too, in case pid numbers wrapped around meanwhile.
        const wrapped = ++ticks % 20 === 0;
        if (this.launcherGone || Date.now() > deadline) {
          resolve(null);
          return true;
        }
        this.init ??= this.findInit(childrenAfter(pids, this.launcherPid!, wrapped));
        const agent = this.init
          ? childrenAfter(pids, this.init.pid, wrapped).find(
              (pid) => namespacePids(pid).at(-1) === 2,
            )
          : undefined;
        if (agent === undefined) return false;
        resolve((this.agentPid = agent));
        return true;
      }),
    );
  }

  private findInit(candidates: number[]): InitProcess | null {
    for (const pid of candidates) {
      const stat = readStat(pid);
      const namespace = pidNamespaceOf(pid);
      if (stat && namespace && namespacePids(pid).at(-1) === 1)
        return { pid, start: stat.startTicks, namespace };
    }
    return null;
  }
}

/** The fallback: the agent's process group, and every process that kept the session's tag. */
class GroupContainer implements SessionContainer {
  readonly mechanism = 'none';
  readonly ready: Promise<number | null>;

  constructor(
    readonly agentPid: number | null,
    private readonly tag: SessionTag,
  ) {
    this.ready = Promise.resolve(agentPid);
  }

  members(): number[] {
    const tagged = findProcessesByEnv(this.tag.name, this.tag.value);
    const grouped =
      this.agentPid === null
        ? []
        : allPids().filter((pid) => readStat(pid)?.pgrp === this.agentPid);
    return [...new Set([...tagged, ...grouped])].filter(isAlive);
  }

  end(termGraceMs: number): Promise<number> {
    return endTagged(this.agentPid, this.tag.name, this.tag.value, termGraceMs);
  }

  kill(): void {
    signalTagged(this.agentPid, this.tag.name, this.tag.value, 'SIGKILL');
  }

  record(): ContainerRecord {
    return { mechanism: 'none' };
  }
}

/**
 * The children of `parent`, looked for among the pids allocated after it: the kernel hands pids out
 * in increasing order, so a fork's child is found within a few reads rather than a scan of /proc
 * (which, for 20 sessions starting at once on a loaded machine, cost seconds). A wrap-around of
 * pid numbers only delays the find until the full list is read.
 */
function childrenAfter(pids: number[], parent: number, wrapped = false): number[] {
  const found: number[] = [];
  for (const pid of pids) {
    if (pid <= parent) continue;
    if (pid > parent + CHILD_WINDOW) break;
    if (readStat(pid)?.ppid === parent) found.push(pid);
  }
  if (found.length > 0 || !wrapped) return found;
  return pids.filter((pid) => pid < parent && readStat(pid)?.ppid === parent);
}

/** Lists /proc once per tick for every container that waits for its init and agent. */
class ChildrenScanner {
  private readonly watchers = new Set<(pids: number[]) => boolean>();
  private timer: NodeJS.Timeout | null = null;

  /** `step` gets every pid in ascending order, each tick, until it returns true. */
  watch(step: (pids: number[]) => boolean): void {
    this.watchers.add(step);
    this.timer ??= setTimeout(() => this.tick(), 0);
  }

  private tick(): void {
    const children = allPids().sort((a, b) => a - b);
    for (const step of this.watchers) if (step(children)) this.watchers.delete(step);
    this.timer = this.watchers.size ? setTimeout(() => this.tick(), SCAN_INTERVAL_MS) : null;
  }
}

const scanner = new ChildrenScanner();

function signal(pid: number, name: NodeJS.Signals): boolean {
  try {
    process.kill(pid, name);
    return true;
  } catch {
    return false; // Gone meanwhile.
  }
}

async function until(done: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}

function findExecutable(name: string): string | null {
  const dirs = [
    ...(process.env['PATH'] ?? '').split(delimiter),
    '/usr/bin',
    '/bin',
    '/usr/sbin',
    '/sbin',
  ];
  for (const dir of dirs.filter(Boolean)) {
    const path = join(dir, name);
    try {
      accessSync(path, fs.X_OK);
      return path;
    } catch {
      // Not here.
    }
  }
  return null;
}
