import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Session } from '../../../contract/api.js';
import type { Diagnostics } from '../../../contract/operations.js';
import { isAlive } from '../processes/process-groups.js';
import { killCageWatchdogs } from '../testing/cage-watchdogs.js';
import { startDaemonProcess, type DaemonProcess } from '../testing/daemon-process.js';
import { escapees, escapingCommand, ESCAPES, newMarker } from '../testing/escapes.js';
import {
  listenGlobally,
  startTestDaemon,
  waitFor,
  type Answer,
  type TestDaemon,
} from '../testing/harness.js';
import { SessionDriver } from '../testing/session-driver.js';
import { workdir } from '../testing/fixtures.js';
type Call = <T = any>(method: string, path: string, body?: unknown) => Promise<Answer<T>>;

/** Has the real agent run every escape through its Bash tool, and waits until they all run. */
async function launchEscapes(call: Call, marker: string): Promise<string> {
  const launched = await call<Session>('POST', '/api/sessions', {
    subscription_id: 'demo',
    model: 'demo-sonnet',
    app: 'tests',
    cwd: workdir(),
    prompt: `demo:bash ${escapingCommand(marker)}`,
  });
  assert.equal(launched.status, 201, launched.text);
  const id = launched.body.id;
  const permission = await waitFor(
    'the Bash permission',
    async () => (await call('GET', `/api/permissions?state=pending&session=${id}`)).body.items[0],
  );
  await call('POST', `/api/permissions/${permission.id}/decision`, { decision: 'allow' });
  await waitFor('every escape running', () => escapees(marker).length === ESCAPES, 20_000);
  return id;
}

/**
 * Escapes running, then a turn still running (a Bash tool in the foreground) when the daemon is
 * killed: the session is `working`, its agent busy.
 */
async function crashInATurn(
  daemon: DaemonProcess,
  marker: string,
): Promise<{ id: string; agentPid: number }> {
  const call = daemon.call;
  const id = await launchEscapes(call, marker);
  await call('POST', `/api/sessions/${id}/messages`, { text: 'demo:sleep' });
  const permission = await waitFor(
    'the second Bash permission',
    async () => (await call('GET', `/api/permissions?state=pending&session=${id}`)).body.items[0],
  );
  await call('POST', `/api/permissions/${permission.id}/decision`, { decision: 'allow' });
  const working = await waitFor('the turn running its tool', async () => {
    const session = await sessionOf(call, id);
    return session.state === 'working' ? session : undefined;
  });
  return { id, agentPid: working.pid! };
}

async function sessionOf(call: Call, id: string): Promise<Session> {
  return (await call<Session>('GET', `/api/sessions/${id}`)).body;
}

// These escapes test the cgroup layer alone: inside the command sandbox (isolation/) nothing a
// command leaves behind outlives the command itself, so they would never all be running at once.
const UNCONFINED = { RELAIS_ISOLATION: 'off' };

describe('nothing a session started outlives it', { timeout: 300_000 }, () => {
  let daemon: TestDaemon;
  before(async () => {
    daemon = await startTestDaemon({ config: { isolation: false } });
  });
  after(async () => {
    await daemon.close();
  });

  it('diagnostics say how sessions are contained', async () => {
    const d = (await daemon.call<Diagnostics>('GET', '/api/diagnostics')).body;
    assert.equal(d.containment.mechanism, 'cgroup', d.containment.detail);
  });

  it('stop: double fork, setsid, env -i, nohup, disown and a SIGTERM-ignoring child all end', async () => {
    const marker = newMarker();
    const id = await launchEscapes(daemon.call, marker);
    const s = new SessionDriver(daemon, id);
    const agentPid = (await s.waitState('idle')).pid!;
    await daemon.call('POST', `/api/sessions/${id}/stop`);
    const ended = await s.waitState('ended');
    assert.equal(ended.end_reason, 'stopped');
    assert.deepEqual(escapees(marker), [], 'processes outlived a session reported ended');
    assert.equal(isAlive(agentPid), false);
  });

  it('an agent that exits on its own takes everything it started with it', async () => {
    const marker = newMarker();
    const id = await launchEscapes(daemon.call, marker);
    const s = new SessionDriver(daemon, id);
    const agentPid = (await s.waitState('idle')).pid!;
    process.kill(agentPid, 'SIGKILL');
    const ended = await s.waitState('ended');
    assert.equal(ended.end_reason, 'agent_exited');
    assert.deepEqual(escapees(marker), [], 'processes outlived a session reported ended');
  });
});

describe('nothing a session started outlives the daemon', { timeout: 300_000 }, () => {
  let running: DaemonProcess | null = null;
  after(async () => {
    await running?.stop('SIGKILL');
  });

  it('a daemon shut down ends every session and everything they started', async () => {
    const home = mkdtempSync(join(tmpdir(), 'relais-contain-'));
    running = await startDaemonProcess(home, UNCONFINED);
    // Someone listening, or prompts are refused outright.
    const client = await listenGlobally(running.base, running.key);
    const marker = newMarker();
    await launchEscapes(running.call, marker).finally(() => client.abort());
    await running.stop('SIGTERM');
    running = null;
    assert.deepEqual(escapees(marker), [], 'processes outlived the daemon');
  });

  it('kill -9 of the daemon: its agents and everything they started end with it, before any restart', async (t) => {
    const home = mkdtempSync(join(tmpdir(), 'relais-contain-'));
    running = await startDaemonProcess(home, UNCONFINED);
    const client = await listenGlobally(running.base, running.key);
    const marker = newMarker();
    const { agentPid } = await crashInATurn(running, marker);
    client.abort();
    assert.equal(escapees(marker).length, ESCAPES);
    const killedAt = Date.now();
    await running.stop('SIGKILL');
    running = null;
    try {
      await waitFor(
        'the agent and every escape ended',
        () => !isAlive(agentPid) && escapees(marker).length === 0,
        5000,
      );
      t.diagnostic(`all gone ${Date.now() - killedAt} ms after the kill`);
    } finally {
      for (const pid of escapees(marker)) process.kill(pid, 'SIGKILL');
    }
  });

  it('after kill -9 of the daemon and its watchdog, a restart ends the leftovers before it serves', async () => {
    const home = mkdtempSync(join(tmpdir(), 'relais-contain-'));
    running = await startDaemonProcess(home, UNCONFINED);
    const client = await listenGlobally(running.base, running.key);
    const marker = newMarker();
    const { id } = await crashInATurn(running, marker);
    client.abort();
    // As when a whole process tree is killed at once: nothing ends the cages before the next start.
    assert.equal(killCageWatchdogs(home), 1, 'one watchdog for the daemon');
    await running.stop('SIGKILL');
    running = null;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    assert.equal(escapees(marker).length, ESCAPES, 'the crash left every escape running');
    const restarted = await startTestDaemon({ home, config: { isolation: false } });
    try {
      assert.deepEqual(escapees(marker), [], 'leftovers survived the restart');
      const session = await sessionOf(restarted.call, id);
      assert.equal(session.state, 'ended');
      assert.equal(session.end_reason, 'daemon_restart');
    } finally {
      await restarted.close();
    }
  });
});
