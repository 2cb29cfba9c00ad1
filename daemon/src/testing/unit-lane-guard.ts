import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import { basename } from 'node:path';

/**
 * Loaded with `--import` in the daemon's unit lane (scripts/daemon-lanes.mjs), whose files run two at
 * a time: a file there that starts an agent or a daemon (node itself, Claude Code, Codex) fails at
 * once, instead of racing the real-agent lane's files for the machine. Short helpers (a shell probe,
 * promtool) are left alone.
 */
const AGENT_OR_DAEMON = /^(node|claude|codex)(\.js|\.mjs)?$|[/\\](claude-code|codex)[/\\]/;

function startsAgent(command: unknown, args: unknown): boolean {
  // A shell command line (exec) is read word by word.
  const words = [command, ...(Array.isArray(args) ? args : [])].flatMap((word) =>
    String(word).split(/\s+/),
  );
  if (command === process.execPath) return true;
  return words.some((word) => AGENT_OR_DAEMON.test(word) || AGENT_OR_DAEMON.test(basename(word)));
}

for (const name of [
  'spawn',
  'spawnSync',
  'exec',
  'execSync',
  'execFile',
  'execFileSync',
  'fork',
] as const) {
  const original = childProcess[name] as (...args: unknown[]) => unknown;
  (childProcess as unknown as Record<string, unknown>)[name] = function guarded(
    this: unknown,
    ...args: unknown[]
  ) {
    if (name === 'fork' || startsAgent(args[0], args[1]))
      throw new Error(
        `The unit lane starts no agent or daemon process, and this test started ${String(args[0])}: ` +
          'start it through the test harness (startTestDaemon, SessionDriver…) so that ' +
          'scripts/daemon-lanes.mjs puts the file in the real-agent lane.',
      );
    return original.apply(this, args);
  };
}
syncBuiltinESMExports();
