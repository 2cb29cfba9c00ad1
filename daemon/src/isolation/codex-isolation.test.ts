import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { CODEX_DEMO_SUBSCRIPTION_ID } from '../subscriptions/subscription-service.js';
import type { TestDaemon } from '../testing/harness.js';
import { SessionDriver } from '../testing/session-driver.js';
import { assertHeld, startEscapeDaemon, type EscapeFixture } from './escape-fixture.js';

describe('Codex sessions: the kernel holds the circles', { timeout: 180_000 }, () => {
  let daemon: TestDaemon;
  let fixture: EscapeFixture;
  before(async () => {
    ({ daemon, fixture } = await startEscapeDaemon());
  });
  after(async () => {
    await daemon.close();
  });

  for (const index of [0, 1, 2, 3])
    it(`command ${index + 1} allowed once reads no secret and writes nothing outside the working folder`, async () => {
      const command = fixture.commands[index]!;
      const s = await SessionDriver.launch(daemon, {
        subscription_id: CODEX_DEMO_SUBSCRIPTION_ID,
        model: 'gpt-5.5',
        cwd: fixture.cwd,
        prompt: `demo:bash ${command}`,
      });
      const pending = await s.pendingPermission();
      await s.decide(pending.id, { decision: 'allow' });
      await s.waitFor('the turn completed', async () =>
        (await s.events()).some(
          (e) => (e.data as Record<string, unknown>)['method'] === 'turn/completed',
        ),
      );
      const recorded = JSON.stringify(await s.events());
      assert.match(recorded, /done/, 'the script ran to its end');
      if (index < 2)
        assert.equal(readFileSync(fixture.inside, 'utf8'), 'made\n', 'writes inside work');
      assertHeld(fixture, recorded);
    });
});
