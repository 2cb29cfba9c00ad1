import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Session, Subscription } from '../../../contract/api.js';
import { startTestDaemon, waitFor, type TestDaemon } from '../testing/harness.js';
import { SessionDriver } from '../testing/session-driver.js';
import { workdir } from '../testing/fixtures.js';

describe('launch brake and suspension, over the real Claude Code', { timeout: 240_000 }, () => {
  let daemon: TestDaemon;
  before(async () => {
    daemon = await startTestDaemon();
  });
  after(async () => {
    await daemon.close();
  });

  const subscription = async (): Promise<Subscription> =>
    (await daemon.call<Subscription>('GET', '/api/subscriptions/demo')).body;

  it('three failed starts suspend the subscription with the agent error; refusals double the wait; an answer reopens it', async () => {
    const survivor = await SessionDriver.launch(daemon, { cwd: workdir(), app: 'suspension' });
    await survivor.waitState('idle');
    for (let i = 1; i <= 3; i++) {
      const failing = await SessionDriver.launch(daemon, {
        cwd: workdir(),
        prompt: 'demo:error 401',
        app: 'suspension',
      });
      await failing.waitResults(1);
      await waitFor(
        'the failure counted',
        async () => (await subscription()).consecutive_failed_starts === i,
      );
      await daemon.call('POST', `/api/sessions/${failing.id}/stop`);
    }
    const suspended = await subscription();
    assert.equal(suspended.status, 'suspended');
    assert.match(
      suspended.last_error ?? '',
      /API key/i,
      'the status carries the agent error line, not an exit code',
    );

    const waits: string[] = [];
    for (let i = 0; i < 3; i++) {
      const refused = await daemon.call('POST', '/api/sessions', {
        subscription_id: 'demo',
        model: 'demo-sonnet',
        cwd: workdir(),
        app: 'suspension',
      });
      assert.equal(refused.status, 409);
      assert.equal(refused.body.error_code, 'subscription_suspended');
      assert.match(refused.body.message, /API key/i);
      assert.equal(refused.headers['retry-after'], String(refused.body.retry_after_seconds));
      waits.push(String(refused.headers['retry-after']));
    }
    assert.deepEqual(waits, ['60', '120', '240']);

    // A session of the subscription that answers reopens it.
    await daemon.call('POST', `/api/sessions/${survivor.id}/messages`, { text: 'still there?' });
    await survivor.waitResults(1);
    const reopened = await waitFor('reopened', async () =>
      (await subscription()).status === 'active' ? subscription() : undefined,
    );
    assert.equal(reopened.consecutive_failed_starts, 0);
    await daemon.call('POST', `/api/sessions/${survivor.id}/stop`);
  });

  it('Retry lifts a suspension by hand', async () => {
    for (let i = 0; i < 3; i++) {
      const failing = await SessionDriver.launch(daemon, {
        cwd: workdir(),
        prompt: 'demo:error 500',
        app: 'retry',
      });
      await failing.waitResults(1);
      await daemon.call('POST', `/api/sessions/${failing.id}/stop`);
    }
    await waitFor('suspended', async () => (await subscription()).status === 'suspended');
    const retried = await daemon.call<Subscription>('POST', '/api/subscriptions/demo/retry');
    assert.equal(retried.body.status, 'active');
    const launched = await daemon.call<Session>('POST', '/api/sessions', {
      subscription_id: 'demo',
      model: 'demo-sonnet',
      cwd: workdir(),
      app: 'retry',
    });
    assert.equal(launched.status, 201);
    await daemon.call('POST', `/api/sessions/${launched.body.id}/stop`);
  });
});

describe('launch brake over the API', { timeout: 120_000 }, () => {
  // One token back a minute: twenty launches on a loaded machine must not earn the 21st its token.
  const intervalMs = 60_000;
  let daemon: TestDaemon;
  before(async () => {
    daemon = await startTestDaemon({ config: { launchBurst: 20, launchIntervalMs: intervalMs } });
  });
  after(async () => {
    await daemon.close();
  });

  it('the 21st launch in a row is braked with Retry-After', async () => {
    const dir = workdir();
    const ids: string[] = [];
    const waitOf = async (app: string): Promise<number> =>
      (await daemon.call('GET', `/api/subscriptions/demo/launch-wait?app=${app}`)).body
        .wait_seconds;
    try {
      assert.equal(await waitOf('brake-test'), 0, 'nothing braked yet');
      for (let i = 0; i < 20; i++) {
        const launched = await daemon.call<Session>(
          'POST',
          '/api/sessions',
          { subscription_id: 'demo', model: 'demo-sonnet', cwd: dir },
          { 'x-relais-app': 'brake-test' },
        );
        assert.equal(launched.status, 201, `launch ${i + 1}: ${launched.text}`);
        assert.equal(launched.body.app, 'brake-test');
        ids.push(launched.body.id);
      }
      const waitBefore = await waitOf('brake-test');
      assert.ok(waitBefore >= 1, `the brake shows before the 21st launch (${waitBefore} s)`);
      assert.ok((await waitOf('another-app')) >= 1, 'the subscription is spent for every app');
      const braked = await daemon.call(
        'POST',
        '/api/sessions',
        { subscription_id: 'demo', model: 'demo-sonnet', cwd: dir },
        { 'x-relais-app': 'brake-test' },
      );
      assert.equal(braked.status, 429);
      assert.equal(braked.body.error_code, 'rate_limited');
      const wait = braked.body.retry_after_seconds;
      assert.ok(wait >= 1 && wait <= intervalMs / 1000, `retry after ${wait} s`);
      assert.equal(braked.headers['retry-after'], String(braked.body.retry_after_seconds));
      assert.ok(Math.abs(wait - waitBefore) <= 1, 'the same wait before and after Launch');
      const unknown = await daemon.call('GET', '/api/subscriptions/nope/launch-wait');
      assert.equal(unknown.status, 404);
    } finally {
      await Promise.all(ids.map((id) => daemon.call('POST', `/api/sessions/${id}/stop`)));
      await waitFor(
        'all stopped',
        async () => {
          const list = (
            await daemon.call<{ items: Session[] }>('GET', '/api/sessions?app=brake-test&limit=100')
          ).body.items;
          return list.every((s) => s.state === 'ended');
        },
        60_000,
      );
    }
  });
});
