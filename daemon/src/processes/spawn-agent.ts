import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { rmSync } from 'node:fs';
import { caged } from './containment.js';

/** How to start an agent's binary: the kit every agent's line process shares. */
export interface SpawnSpec {
  binary: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** The session's cgroup, entered before the binary runs (processes/containment.ts). */
  cage?: string | null;
  /** The session's private temporary folder, removed once the agent has exited. */
  tempDir?: string | null;
}

/**
 * Starts an agent binary on pipes, leading a process group of its own (detached), inside the
 * session's cage when there is one: the pid is the agent's either way (the cage's shell execs it).
 */
export function spawnAgent(spec: SpawnSpec): ChildProcessWithoutNullStreams {
  const command = caged(spec.cage ?? null, spec.binary, spec.args);
  const child = spawn(command.binary, command.args, {
    cwd: spec.cwd,
    env: spec.env,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const tempDir = spec.tempDir;
  if (tempDir) {
    const remove = (): void => rmSync(tempDir, { recursive: true, force: true });
    child.once('exit', remove);
    child.once('error', remove);
  }
  return child;
}
