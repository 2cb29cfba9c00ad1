// Daemon memory with 8 idle sessions: the daemon runs in its own process (agents are separate
// processes and are not counted); RSS is read from /proc.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rawRequest, waitFor } from '../src/testing/harness.js';

const SESSIONS = 8;
const rssMiB = (pid: number): number => {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? 0) / 1024;
};

const home = mkdtempSync(join(tmpdir(), 'relais-bench-rss-'));
const cwd = mkdtempSync(join(tmpdir(), 'relais-bench-cwd-'));
const child = spawn(process.execPath, [join(import.meta.dirname, '..', 'src', 'main.js')], {
  env: { ...process.env, RELAIS_HOME: home, RELAIS_PORT: '0', RELAIS_LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
let out = '';
child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
const url = await waitFor('the console URL', () => /http:\/\/127\.0\.0\.1:(\d+)\/#key=(\S+)/.exec(out) ?? undefined);
const base = `http://127.0.0.1:${url[1]}`;
const auth = { authorization: `Bearer ${url[2]}`, 'content-type': 'application/json' };
await new Promise((resolve) => setTimeout(resolve, 1000));
const baseline = rssMiB(child.pid!);

const ids: string[] = [];
for (let i = 0; i < SESSIONS; i++) {
  const body = JSON.stringify({ subscription_id: 'demo', model: 'demo-sonnet', cwd, prompt: `hello ${i}`, app: 'bench' });
  ids.push((await rawRequest(base, 'POST', '/api/sessions', body, auth)).body.id);
}
await waitFor('all sessions idle after their first turn', async () => {
  const states = await Promise.all(ids.map(async (id) => (await rawRequest(base, 'GET', `/api/sessions/${id}`, undefined, auth)).body));
  return states.every((s) => s.state === 'idle' && s.turns === 1);
}, 120_000);
await new Promise((resolve) => setTimeout(resolve, 2000));
const withSessions = rssMiB(child.pid!);
console.log(`daemon RSS: ${baseline.toFixed(1)} MiB with no session, ${withSessions.toFixed(1)} MiB with ${SESSIONS} idle sessions (agents excluded)`);
child.kill('SIGTERM');
await new Promise((resolve) => child.once('exit', resolve));
rmSync(home, { recursive: true, force: true });
