import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { PermissionRequest, Session } from '../../../contract/api.js';
import { startTestDaemon, type TestDaemon } from '../testing/harness.js';
import { SessionDriver } from '../testing/session-driver.js';
import { workdir } from '../testing/fixtures.js';

describe('"run confined commands without asking"', { timeout: 120_000 }, () => {
  let daemon: TestDaemon;
  before(async () => {
    daemon = await startTestDaemon();
  });
  after(async () => {
    await daemon.close();
  });

  it('a command no rule decides runs without a prompt, and the session says it was chosen', async () => {
    const cwd = workdir();
    const s = await SessionDriver.launch(daemon, {
      cwd,
      prompt: 'demo:bash touch made.txt',
      confined_without_asking: true,
    });
    await s.waitResults(1);
    assert.ok(existsSync(join(cwd, 'made.txt')));
    const asked = await daemon.call<{ items: PermissionRequest[] }>(
      'GET',
      `/api/permissions?session=${s.id}`,
    );
    assert.equal(asked.body.items.length, 0, 'nobody was asked');
    const auto = (await s.events())
      .map((e) => e.data as Record<string, unknown>)
      .filter((d) => d['subtype'] === 'permission_auto');
    assert.equal(auto[0]!['step'], 'confined');
    assert.equal((await s.session()).confined_without_asking, true);
  });

  it('an ask rule still asks (git push), and sessions without the choice still ask', async () => {
    const s = await SessionDriver.launch(daemon, {
      cwd: workdir(),
      prompt: 'demo:bash git push origin main',
      confined_without_asking: true,
    });
    assert.equal((await s.pendingPermission()).tool_name, 'Bash');
    const plain = await SessionDriver.launch(daemon, {
      cwd: workdir(),
      prompt: 'demo:bash touch x.txt',
    });
    assert.equal((await plain.pendingPermission()).tool_name, 'Bash');
    assert.equal((await plain.session()).confined_without_asking, false);
  });

  it('refused when commands run unconfined', async () => {
    const unconfined = await startTestDaemon({ config: { isolation: false } });
    try {
      const answer = await unconfined.call<Session & { error_code: string }>(
        'POST',
        '/api/sessions',
        {
          subscription_id: 'demo',
          model: 'demo-sonnet',
          cwd: workdir(),
          confined_without_asking: true,
        },
      );
      assert.equal(answer.status, 409);
      assert.equal(answer.body.error_code, 'isolation_unavailable');
    } finally {
      await unconfined.close();
    }
  });
});
