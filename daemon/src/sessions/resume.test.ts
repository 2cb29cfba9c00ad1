import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Session } from '../../../contract/api.js';
import { CODEX_DEMO_SUBSCRIPTION_ID } from '../subscriptions/subscription-service.js';
import { startTestDaemon, waitFor, type TestDaemon } from '../testing/harness.js';
import { SessionDriver } from '../testing/session-driver.js';
import { workdir } from '../testing/fixtures.js';

type Line = Record<string, any>;

async function hostLine(s: SessionDriver, method: string): Promise<Line | undefined> {
  return (await s.events())
    .filter((e) => e.source === 'host')
    .map((e) => e.data as Line)
    .find((line) => line['method'] === method);
}

async function createdLine(s: SessionDriver): Promise<Line> {
  const [first] = await s.events();
  return first!.data as Line;
}

/** A session run to its first answer, then the daemon restarted under it (same home). */
async function acrossRestart(
  launch: Record<string, unknown>,
  answered: (s: SessionDriver) => Promise<unknown>,
): Promise<{ daemon: TestDaemon; before: Session }> {
  const home = mkdtempSync(join(tmpdir(), 'relais-resume-home-'));
  const first = await startTestDaemon({ home });
  let before: Session;
  try {
    const s = await SessionDriver.launch(first, launch);
    await answered(s);
    before = await s.waitState('idle');
  } finally {
    await first.close();
  }
  return { daemon: await startTestDaemon({ home }), before };
}

describe('resume a Relais session after a daemon restart', { timeout: 240_000 }, () => {
  it('Claude: a new session continues the same conversation (--resume), in the mode it had', async () => {
    const { daemon, before } = await acrossRestart(
      { cwd: workdir(), prompt: 'first words', permission_mode: 'read_only' },
      (s) => s.waitResults(1),
    );
    try {
      const ended = (await daemon.call<Session>('GET', `/api/sessions/${before.id}`)).body;
      assert.equal(ended.state, 'ended');
      const resumed = await daemon.call<Session>('POST', `/api/sessions/${before.id}/resume`, {
        prompt: 'second words',
        app: 'tests',
      });
      assert.equal(resumed.status, 201, resumed.text);
      assert.notEqual(resumed.body.id, before.id, 'a new session');
      assert.equal(resumed.body.permission_mode, 'read_only', 'the mode the session had');
      assert.equal(resumed.body.cwd, before.cwd);
      const live = new SessionDriver(daemon, resumed.body.id);
      const [result] = await live.waitResults(1);
      assert.equal(result!['is_error'], false);
      const init = (await live.agentLines('system')).find((line) => line['subtype'] === 'init')!;
      assert.equal(init['session_id'], before.agent_session_id, 'the same conversation');
      assert.equal((await createdLine(live))['resumed_from'], before.id);
      assert.match((await live.assistantTexts()).at(-1)!, /second words/);
    } finally {
      await daemon.close();
    }
  });

  it('Codex: thread/resume gives the thread back with its turns', async () => {
    const { daemon, before } = await acrossRestart(
      {
        subscription_id: CODEX_DEMO_SUBSCRIPTION_ID,
        model: 'gpt-5.5',
        cwd: workdir(),
        prompt: 'first words',
      },
      (s) =>
        waitFor('the first turn', async () => ((await s.session()).turns >= 1 ? true : undefined)),
    );
    try {
      const resumed = await daemon.call<Session>('POST', `/api/sessions/${before.id}/resume`, {
        prompt: 'second words',
        app: 'tests',
      });
      assert.equal(resumed.status, 201, resumed.text);
      const live = new SessionDriver(daemon, resumed.body.id);
      const idle = await waitFor('the resumed turn', async () => {
        const session = await live.session();
        return session.turns >= 1 && session.state === 'idle' ? session : undefined;
      });
      assert.equal(idle.agent_session_id, before.agent_session_id, 'the same thread');
      const request = await hostLine(live, 'thread/resume');
      assert.equal(request?.['params']['threadId'], before.agent_session_id);
      assert.equal(await hostLine(live, 'thread/start'), undefined);
      const answer = (await live.events())
        .map((e) => e.data as Line)
        .find((line) => line['id'] === request!['id'] && line['result']);
      assert.ok(answer!['result']['thread']['turns'].length >= 1, 'the earlier turn comes back');
    } finally {
      await daemon.close();
    }
  });

  it('refuses what cannot be resumed: a running session, one the agent never started, an unknown id', async () => {
    const daemon = await startTestDaemon();
    try {
      const s = await SessionDriver.launch(daemon, { cwd: workdir(), prompt: 'hello' });
      await s.waitResults(1);
      const running = await daemon.call('POST', `/api/sessions/${s.id}/resume`, {});
      assert.equal(running.status, 409);
      assert.equal(running.body.error_code, 'session_running');

      await daemon.call('POST', `/api/sessions/${s.id}/stop`, {});
      await s.waitState('ended');
      daemon.relais.db
        .prepare('UPDATE sessions SET agent_session_id = NULL WHERE id = ?')
        .run(s.id);
      const never = await daemon.call('POST', `/api/sessions/${s.id}/resume`, {});
      assert.equal(never.status, 409);
      assert.equal(never.body.error_code, 'not_resumable');

      const unknown = await daemon.call('POST', '/api/sessions/ses_nope/resume', {});
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.error_code, 'not_found');
    } finally {
      await daemon.close();
    }
  });
});
