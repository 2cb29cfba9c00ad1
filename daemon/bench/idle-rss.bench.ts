// Daemon memory with 8 idle sessions, 4 Claude and 4 Codex: the daemon runs in its own process
// (agents are separate processes and are not counted); RSS is read from /proc. Also prints spawn →
// ready (launch answered → session idle, no prompt) per agent.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDaemonProcess } from '../src/testing/daemon-process.js';
import { waitFor } from '../src/testing/harness.js';

const SESSIONS = 8;
const AGENTS = [
  { subscription: 'demo', model: 'demo-sonnet', name: 'Claude' },
  { subscription: 'demo-codex', model: 'gpt-5.5', name: 'Codex' },
];
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

for (const agent of AGENTS) {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    const id = (
      await daemon.call('POST', '/api/sessions', {
        subscription_id: agent.subscription,
        model: agent.model,
        cwd,
        app: 'bench-ready',
      })
    ).body.id;
    await waitFor(
      'ready',
      async () => (await daemon.call('GET', `/api/sessions/${id}`)).body.state === 'idle',
      60_000,
    );
    times.push(performance.now() - started);
    await daemon.call('POST', `/api/sessions/${id}/stop`);
  }
  times.sort((a, b) => a - b);
  console.log(
    `${agent.name}: spawn → ready median ${times[1]!.toFixed(0)} ms (runs: ${times.map((t) => t.toFixed(0)).join(', ')})`,
  );
}

const ids: string[] = [];
for (let i = 0; i < SESSIONS; i++) {
  const agent = AGENTS[i % AGENTS.length]!;
  ids.push(
    (
      await daemon.call('POST', '/api/sessions', {
        subscription_id: agent.subscription,
        model: agent.model,
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
  `daemon RSS: ${baseline.toFixed(1)} MiB with no session, ${withSessions.toFixed(1)} MiB with ${SESSIONS} idle sessions, 4 Claude + 4 Codex (agents excluded)`,
);
await daemon.stop();
rmSync(home, { recursive: true, force: true });
