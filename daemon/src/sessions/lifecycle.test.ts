import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Session } from '../../../contract/api.js';
import { SESSION_TAG_VAR } from '../agents/claude/environment.js';
import { findProcessesByEnv, isAlive } from '../processes/process-groups.js';
import { killCageWatchdogs } from '../testing/cage-watchdogs.js';
import { startDaemonProcess } from '../testing/daemon-process.js';
import { listenGlobally, startTestDaemon, waitFor, type TestDaemon } from '../testing/harness.js';
import { SessionDriver } from '../testing/session-driver.js';
import { workdir } from '../testing/fixtures.js';

/** Processes of the session running `sleep`, found by the tag every agent process inherits. */
function sleepers(sessionId: string): number[] {
  return findProcessesByEnv(SESSION_TAG_VAR, sessionId).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('sleep');
    } catch {
      return false; // Gone between the scan and the read.
    }
  });
}

describe('session lifecycle', { timeout: 240_000 }, () => {
  let daemon: TestDaemon;
  before(async () => {
    daemon = await startTestDaemon({ config: { maxTtlSeconds: 40 } });
  });
  after(async () => {
    await daemon.close();
  });

  it('stop leaves no process of the group alive, grandchildren included', async () => {
    const s = await SessionDriver.launch(daemon, { cwd: workdir(), prompt: 'demo:sleep' });
    await s.decide((await s.pendingPermission()).id, { decision: 'allow' });
    const pids = await waitFor('two sleep processes', () => {
      const found = sleepers(s.id);
      return found.length >= 2 ? found : undefined;
    });
    const agentPid = (await s.session()).pid!;
    const stopping = await daemon.call<Session>('POST', `/api/sessions/${s.id}/stop`);
    assert.equal(stopping.status, 200);
    const ended = await s.waitState('ended');
    assert.equal(ended.end_reason, 'stopped');
    for (const pid of [agentPid, ...pids])
      assert.equal(isAlive(pid), false, `process ${pid} survived the stop`);
    assert.deepEqual(findProcessesByEnv(SESSION_TAG_VAR, s.id), []);
    const late = await daemon.call('POST', `/api/sessions/${s.id}/messages`, { text: 'hello?' });
    assert.equal(late.status, 409);
    assert.equal(late.body.error_code, 'session_ended');
  });

  it('stop lets what the agent left clean up after itself (SIGTERM) before nothing is left', async () => {
    // Inside the command sandbox a job left in the background ends with its command; this is the
    // stop of a session whose commands run unconfined (RELAIS_ISOLATION=off).
    const unconfined = await startTestDaemon({ config: { maxTtlSeconds: 40, isolation: false } });
    try {
      await leftJobCleansUp(unconfined);
    } finally {
      await unconfined.close();
    }
  });

  async function leftJobCleansUp(daemon: TestDaemon): Promise<void> {
    const cwd = workdir();
    // A background job that removes its lock on SIGTERM, the way git and pyenv do.
    const job = `(touch job.lock; trap 'rm job.lock; exit' TERM; while :; do sleep 0.1; done) &`;
    const s = await SessionDriver.launch(daemon, { cwd, prompt: `demo:bash ${job}` });
    await s.decide((await s.pendingPermission()).id, { decision: 'allow' });
    await s.waitState('idle');
    await waitFor(
      'the job and its lock',
      () => sleepers(s.id).length > 0 && existsSync(join(cwd, 'job.lock')),
    );

    await daemon.call<Session>('POST', `/api/sessions/${s.id}/stop`);
    await s.waitState('ended');
    assert.deepEqual(findProcessesByEnv(SESSION_TAG_VAR, s.id).filter(isAlive), []);
    assert.equal(
      existsSync(join(cwd, 'job.lock')),
      false,
      'the job was killed before it could clean up',
    );
  }

  it('heartbeat extends the deadline, never past the maximum bound', async () => {
    const s = await SessionDriver.launch(daemon, { cwd: workdir(), ttl_seconds: 10 });
    const first = await s.waitState('idle');
    const plain = await daemon.call<Session>('POST', `/api/sessions/${s.id}/heartbeat`, {});
    const left = Date.parse(plain.body.deadline_at) - Date.now();
    assert.ok(Date.parse(plain.body.deadline_at) >= Date.parse(first.deadline_at));
    assert.ok(
      left > 5_000 && left <= 10_000,
      `a plain heartbeat extends by the launch TTL (${left} ms)`,
    );
    const beat = await daemon.call<Session>('POST', `/api/sessions/${s.id}/heartbeat`, {
      extend_seconds: 25,
    });
    assert.equal(beat.status, 200);
    assert.ok(Date.parse(beat.body.deadline_at) > Date.parse(first.deadline_at) + 10_000);
    const again = await daemon.call<Session>('POST', `/api/sessions/${s.id}/heartbeat`, {});
    assert.equal(
      again.body.deadline_at,
      beat.body.deadline_at,
      'a heartbeat never shortens the deadline',
    );
    const capped = await daemon.call<Session>('POST', `/api/sessions/${s.id}/heartbeat`, {
      extend_seconds: 100_000,
    });
    assert.equal(capped.body.deadline_at, capped.body.max_deadline_at);
    await daemon.call('POST', `/api/sessions/${s.id}/stop`);
    await s.waitState('ended');
  });

  it('the deadline is enforced between messages: an idle session expires', async () => {
    const s = await SessionDriver.launch(daemon, { cwd: workdir(), ttl_seconds: 10 });
    await s.waitState('idle');
    const ended = await waitFor(
      'expiry',
      async () => {
        const current = await s.session();
        return current.state === 'ended' ? current : undefined;
      },
      20_000,
    );
    assert.equal(ended.end_reason, 'expired');
  });

  it('a launch with a missing folder or subscription is refused clearly', async () => {
    const noDir = await daemon.call('POST', '/api/sessions', {
      subscription_id: 'demo',
      model: 'x',
      cwd: '/definitely/not/here',
    });
    assert.equal(noDir.status, 400);
    assert.equal(noDir.body.error_code, 'invalid_cwd');
    const noSub = await daemon.call('POST', '/api/sessions', {
      subscription_id: 'nope',
      model: 'x',
      cwd: workdir(),
    });
    assert.equal(noSub.status, 400);
    assert.equal(noSub.body.error_code, 'unknown_subscription');
  });
});

describe('daemon restart', { timeout: 120_000 }, () => {
  it('keeps every conversation readable, ends sessions left running and kills their leftovers', async () => {
    const home = mkdtempSync(join(tmpdir(), 'relais-restart-'));
    // Tools outside the command sandbox: inside it they end with their agent, which ends with the
    // daemon (processes/die-with-daemon.ts), and there would be no leftovers to find.
    const daemonProcess = await startDaemonProcess(home, { RELAIS_ISOLATION: 'off' });
    const { base, key, call } = daemonProcess;
    const console = await listenGlobally(base, key);
    const launched = await call('POST', '/api/sessions', {
      subscription_id: 'demo',
      model: 'demo-sonnet',
      cwd: workdir(),
      prompt: 'demo:sleep',
    });
    assert.equal(launched.status, 201);
    const id: string = launched.body.id;
    const permission = await waitFor(
      'pending permission',
      async () => (await call('GET', '/api/permissions?state=pending')).body.items[0],
    );
    await call('POST', `/api/permissions/${permission.id}/decision`, { decision: 'allow' });
    const left = await waitFor('sleepers', () =>
      sleepers(id).length >= 2 ? sleepers(id) : undefined,
    );
    const before = (await call('GET', `/api/sessions/${id}/events?limit=500`)).body.items.length;

    console.abort();
    // A crash of the whole process tree: nothing is cleaned up, not even by the cage watchdog.
    assert.equal(killCageWatchdogs(home), 1);
    await daemonProcess.stop('SIGKILL');
    assert.ok(left.some(isAlive), 'the crash left processes behind');

    const daemon = await startTestDaemon({ home, config: { isolation: false } });
    try {
      const session = (await daemon.call<Session>('GET', `/api/sessions/${id}`)).body;
      assert.equal(session.state, 'ended');
      assert.equal(session.end_reason, 'daemon_restart');
      await waitFor('leftovers gone', () => left.every((pid) => !isAlive(pid)), 5000);
      const events = (await daemon.call('GET', `/api/sessions/${id}/events?limit=500`)).body.items;
      assert.ok(events.length >= before, 'the conversation is still readable');
      assert.ok(events.some((e: any) => e.data?.type === 'system' && e.data?.subtype === 'init'));
    } finally {
      await daemon.close();
    }
  });
});
