import type { Circles } from './circles.js';

/**
 * Claude Code's own command sandbox (bubblewrap and socat on Linux), configured per session through
 * `--settings`. Measured with the pinned 2.1.332: `denyRead` of `/` then `allowRead` of a folder
 * exposes that folder alone; a `denyRead` glob inside an exposed folder wins over it (`Permission
 * denied`); a path outside the exposed ones is `No such file or directory`; a write outside the
 * writable folders is `Read-only file system`; `/tmp` is a private tmpfs per command.
 */
export function claudeSandboxSettings(
  circles: Circles,
  /** Relais' network gate for this session; without one, commands reach no host at all. */
  proxyPort: number | null = null,
): Record<string, unknown> {
  return {
    sandbox: {
      enabled: true,
      // Never a silent fallback: no sandbox, no session; no command retried outside it.
      failIfUnavailable: true,
      allowUnsandboxedCommands: false,
      // Relais' engine and a person still decide every command; the sandbox is the second wall.
      autoAllowBashIfSandboxed: false,
      filesystem: {
        denyRead: ['/', ...circles.hidden],
        allowRead: circles.readable,
        allowWrite: circles.writable,
        // Read-only mode: measured with 2.1.332, the command then cannot even start (bubblewrap
        // cannot make the mount points of Claude's own protections in a read-only folder), which
        // is the engine's answer too: no command at all.
        denyWrite: [...circles.hidden, ...circles.unwritable],
      },
      // Measured: with no domain allowed, the sandbox refuses every host and sends no prompt
      // through the stdio permission tool; Relais' own proxy asks the person instead.
      ...(proxyPort === null ? {} : { network: { httpProxyPort: proxyPort } }),
    },
  };
}
