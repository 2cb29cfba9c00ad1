// Daemon memory with 8 idle sessions: the daemon runs in its own process (agents are separate
// processes and are not counted); RSS is read from /proc.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDaemonProcess } from '../src/testing/daemon-process.js';
import { waitFor } from '../src/testing/harness.js';

const SESSIONS = 8;
const rssMiB = (pid: number): number => {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? 0) / 1024;
};

const home = mkdtempSync(join(tmpdir(), 'relais-bench-rss-'));
const cwd = mkdtempSync(join(tmpdir(), 'relais-bench-cwd-'));
const daemon = await startDaemonProcess(home);
const pid = daemon.child.pid!;
await new Promise((resolve) => setTimeout(resolve, 1000));
const baseline = rssMiB(pid);

const ids: string[] = [];
for (let i = 0; i < SESSIONS; i++) {
  ids.push(
    (
      await daemon.call('POST', '/api/sessions', {
        subscription_id: 'demo',
        model: 'demo-sonnet',
        cwd,
        prompt: `hello ${i}`,
        app: 'bench',
      })
    ).body.id,
  );
}
await waitFor(
  'all sessions idle after their first turn',
  async () => {
    const states = await Promise.all(
      ids.map(async (id) => (await daemon.call('GET', `/api/sessions/${id}`)).body),
    );
    return states.every((s) => s.state === 'idle' && s.turns === 1);
  },
  120_000,
);
await new Promise((resolve) => setTimeout(resolve, 2000));
const withSessions = rssMiB(pid);
console.log(
  `daemon RSS: ${baseline.toFixed(1)} MiB with no session, ${withSessions.toFixed(1)} MiB with ${SESSIONS} idle sessions (agents excluded)`,
);
await daemon.stop();
rmSync(home, { recursive: true, force: true });
