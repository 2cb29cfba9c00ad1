import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The command that installs what the confinement needs (Debian and Ubuntu). */
export const INSTALL_COMMAND = 'sudo apt-get install bubblewrap socat';

/**
 * Whether this machine can confine a session's commands: both agents use bubblewrap (Claude Code
 * through its own sandbox, with socat for its network proxy; Codex inside a bubblewrap Relais
 * starts), and bubblewrap needs unprivileged user namespaces.
 */
export interface IsolationStatus {
  available: boolean;
  /** What is missing, in one line for a person (null when available). */
  problem: string | null;
  /** How to fix it (null when available or when no command fixes it). */
  install: string | null;
  bubblewrap: string | null;
  socat: string | null;
}

/** Looks for bubblewrap and socat on PATH (the agents' PATH), then tries a namespace. */
export function detectIsolation(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): IsolationStatus {
  if (platform !== 'linux')
    return unavailable(`command confinement is built on Linux only (this is ${platform})`, null);
  const bwrap = onPath('bwrap', env);
  const socat = onPath('socat', env);
  // Codex's jails find the protected names with find (findutils).
  const find = onPath('find', env);
  const missing = [bwrap ? null : 'bubblewrap (bwrap)', socat ? null : 'socat'].filter(Boolean);
  if (!find) missing.push('find');
  if (!bwrap || !socat || !find)
    return {
      ...unavailable(
        `${missing.slice(0, -1).join(', ')}${missing.length > 1 ? ' and ' : ''}${missing.at(-1)} not found on PATH`,
        find ? INSTALL_COMMAND : `${INSTALL_COMMAND} findutils`,
      ),
      bubblewrap: bwrap ? version(bwrap, ['--version']) : null,
      socat: socat ? version(socat, ['-V']) : null,
    };
  const probe = spawnSync(
    bwrap,
    ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-all', 'true'],
    { timeout: 5000, encoding: 'utf8', env: { PATH: env['PATH'] ?? '' } },
  );
  const status = {
    bubblewrap: version(bwrap, ['--version']),
    socat: version(socat, ['-V']),
  };
  if (probe.status !== 0) {
    const reason = (probe.stderr || probe.error?.message || `exit ${probe.status}`).trim();
    return {
      ...unavailable(
        `bubblewrap cannot create a namespace here (${reason.split('\n')[0]}); allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1)`,
        null,
      ),
      ...status,
    };
  }
  return { available: true, problem: null, install: null, ...status };
}

function unavailable(problem: string, install: string | null): IsolationStatus {
  return { available: false, problem, install, bubblewrap: null, socat: null };
}

export function onPath(name: string, env: NodeJS.ProcessEnv): string | null {
  for (const folder of (env['PATH'] ?? '').split(delimiter)) {
    if (!folder.startsWith('/')) continue;
    const candidate = join(folder, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this folder.
    }
  }
  return null;
}

function version(binary: string, args: string[]): string | null {
  const run = spawnSync(binary, args, { timeout: 3000, encoding: 'utf8' });
  const text = `${run.stdout ?? ''}${run.stderr ?? ''}`;
  return /\d+\.\d+(?:\.\d+)*/.exec(text)?.[0] ?? null;
}
