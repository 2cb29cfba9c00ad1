import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AdmissionAnswer, QuotasAnswer } from '../../../contract/usage.js';
import { startTestDaemon, waitFor, type Answer, type TestDaemon } from '../testing/harness.js';
import { SessionDriver } from '../testing/session-driver.js';
import { workdir } from '../testing/fixtures.js';

/**
 * The built-in demo, as a newcomer meets it: its quota endpoint starts at 24 % / 36 % (use from
 * before Relais) and moves with what the demo model serves (1 % of five hours per 1000 units).
 */
describe('admission on the demo subscription', { timeout: 240_000 }, () => {
  let daemon: TestDaemon;
  const saved = { ...process.env };
  before(async () => {
    process.env['RELAIS_QUOTA_DEMO_POLL_SECONDS'] = '1';
    daemon = await startTestDaemon();
  });
  after(async () => {
    await daemon.close();
    process.env = saved;
  });

  const preview = async (): Promise<AdmissionAnswer> =>
    (await daemon.call<AdmissionAnswer>('GET', '/api/quotas/admission?subscription_id=demo')).body;
  const fiveHour = async (): Promise<number | null> => {
    const quotas = (await daemon.call<QuotasAnswer>('GET', '/api/quotas')).body;
    const demo = quotas.items.find((i) => i.subscription_id === 'demo');
    return demo?.windows.find((w) => w.window === 'five_hour')?.utilization ?? null;
  };
  const launch = (prompt: string): Promise<Answer<any>> =>
    daemon.call('POST', '/api/sessions', {
      subscription_id: 'demo',
      model: 'demo-sonnet',
      cwd: workdir(),
      app: 'tests',
      prompt,
    });
  const runToEnd = async (prompt: string): Promise<void> => {
    const session = await SessionDriver.launch(daemon, { cwd: workdir(), prompt });
    await session.waitResults(1);
    await daemon.call('POST', `/api/sessions/${session.id}/stop`);
    await session.waitState('ended');
  };
  const stopAll = async (ids: string[]): Promise<void> => {
    await Promise.all(ids.map((id) => daemon.call('POST', `/api/sessions/${id}/stop`)));
    for (const id of ids) await new SessionDriver(daemon, id).waitState('ended');
  };

  it('two short sessions, then four concurrent launches are admitted (the 36 % is not theirs)', async () => {
    await waitFor('a first reading', async () => (await fiveHour()) !== null);
    await runToEnd('hello');
    await runToEnd('hello again');
    const launches = await Promise.all([0, 1, 2, 3].map(() => launch('demo:slow 4000')));
    assert.deepEqual(
      launches.map((l) => `${l.status} ${l.body.message ?? ''}`),
      ['201 ', '201 ', '201 ', '201 '],
    );
    const figures = (await preview()).figures;
    assert.equal(figures.running_sessions, 4);
    assert.equal(figures.sessions_averaged, 2);
    for (const w of figures.windows) {
      assert.equal(w.rate_source, 'prior', `${w.window}: two-line sessions teach nothing yet`);
      assert.ok(w.rate_per_session < 1, `${w.window}: ${w.rate_per_session} % a session`);
    }
    await stopAll(launches.map((l) => l.body.id as string));
  });

  it('the admission preview refuses bad questions with the right status, never a 500', async () => {
    const ask = (query: string) => daemon.call('GET', `/api/quotas/admission${query}`);
    assert.equal((await ask('?subscription_id=nope')).body.error_code, 'not_found');
    assert.equal((await ask('?subscription_id=..%2F..%2Fetc')).status, 404);
    assert.equal((await ask('')).body.error_code, 'invalid_request');
    assert.equal((await ask(`?subscription_id=${'x'.repeat(201)}`)).status, 400);
    assert.equal((await ask('?subscription_id=demo&extra=1')).status, 400);
    assert.equal((await ask('?subscription_id=demo')).status, 200);
  });

  it('a heavy session that moves the window makes the next launches reserve what it cost, then refuse', async () => {
    const before = (await preview()).figures;
    const startedAt = (await fiveHour())!;
    await runToEnd('demo:heavy 20000');
    // The demo endpoint counted 20 000 units: 20 points of the five-hour window.
    await waitFor(
      'the heavy session in a reading',
      async () => (await fiveHour())! >= startedAt + 19,
    );
    const after = await waitFor('the rate learned', async () => {
      const figures = (await preview()).figures;
      const w = figures.windows.find((x) => x.window === 'five_hour');
      return w?.rate_source === 'learned' ? figures : undefined;
    });
    const five = after.windows.find((w) => w.window === 'five_hour')!;
    // The endpoint counts 1000 % per million units; the prior said half.
    assert.ok(
      Math.abs(five.percent_per_million_units - 1000) <= 150,
      `learned ${five.percent_per_million_units} % per million units`,
    );
    assert.ok(five.learned_from_sessions >= 1);
    assert.ok(
      Math.abs(
        five.rate_per_session - (after.units_per_session * five.percent_per_million_units) / 1e6,
      ) < 1e-9,
    );
    assert.ok(
      five.rate_per_session >
        5 * before.windows.find((w) => w.window === 'five_hour')!.rate_per_session,
      `a session now reserves ${five.rate_per_session} %`,
    );

    // Heavy sessions, one after the other, until admission says no: before the window is full.
    let refused: Answer<any> | null = null;
    for (let i = 0; i < 6 && !refused; i++) {
      const answer = await launch('demo:heavy 20000');
      if (answer.status === 429) {
        refused = answer;
        break;
      }
      assert.equal(answer.status, 201, answer.text);
      const session = new SessionDriver(daemon, answer.body.id);
      await session.waitResults(1);
      await daemon.call('POST', `/api/sessions/${session.id}/stop`);
      await session.waitState('ended');
    }
    assert.ok(refused, 'admission refused before six more heavy sessions');
    assert.equal(refused.body.error_code, 'quota_exhausted');
    const figures = refused.body.figures;
    assert.equal(figures.window, 'five_hour');
    assert.equal(figures.rate_source, 'learned');
    assert.ok(figures.projected > 95, `projected ${figures.projected}`);
    assert.ok(
      figures.utilization <= 100,
      `refused at ${figures.utilization} %, before passing 100`,
    );
    assert.ok(Number(refused.headers['retry-after']) > 0);
    assert.match(refused.body.message, /learned from \d+ session/);
  });
});
