import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { MessageResult } from '../../../contract/api.js';
import { startTestDaemon, type TestDaemon } from '../testing/harness.js';
import { SessionDriver } from '../testing/session-driver.js';
import { workdir } from '../testing/fixtures.js';

// Claude cannot add to a running turn: "steer now" interrupts it, then sends the text first.
describe('steer now over the real Claude Code', { timeout: 120_000 }, () => {
  let daemon: TestDaemon;

  before(async () => {
    daemon = await startTestDaemon();
  });
  after(async () => {
    await daemon.close();
  });

  it('interrupts the running turn and sends the text ahead of the queue', async () => {
    const cwd = workdir();
    const s = await SessionDriver.launch(daemon, { cwd, prompt: 'demo:slow 60000' });
    await s.waitState('working');
    const queued = await daemon.call<MessageResult>('POST', `/api/sessions/${s.id}/messages`, {
      text: 'queued after',
    });
    assert.equal(queued.body.delivery, 'queued');
    const steered = await daemon.call<MessageResult>('POST', `/api/sessions/${s.id}/steer`, {
      text: 'steered first',
    });
    assert.equal(steered.status, 200);
    assert.equal(steered.body.delivery, 'steered');
    await s.waitResults(3);
    const texts = await s.assistantTexts();
    const steeredAt = texts.indexOf('Demo model here. You said: steered first');
    const queuedAt = texts.indexOf('Demo model here. You said: queued after');
    assert.ok(steeredAt >= 0 && queuedAt > steeredAt, texts.join(' | '));
  });

  it('steers with a queued instruction, which leaves the queue', async () => {
    const cwd = workdir();
    const s = await SessionDriver.launch(daemon, { cwd, prompt: 'demo:slow 60000' });
    await s.waitState('working');
    const queued = await daemon.call<MessageResult>('POST', `/api/sessions/${s.id}/messages`, {
      text: 'from the queue',
    });
    const entry = queued.body.entry!;
    const answer = await daemon.call<MessageResult>(
      'POST',
      `/api/sessions/${s.id}/queue/${entry.id}/steer`,
    );
    assert.equal(answer.body.delivery, 'steered');
    assert.equal((await daemon.call('GET', `/api/sessions/${s.id}/queue`)).body.items.length, 0);
    await s.waitResults(2);
    assert.ok((await s.assistantTexts()).includes('Demo model here. You said: from the queue'));
    const missing = await daemon.call('POST', `/api/sessions/${s.id}/queue/q_nope/steer`);
    assert.equal(missing.status, 404);
  });
});
