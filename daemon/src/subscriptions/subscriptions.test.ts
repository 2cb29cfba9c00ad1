import assert from 'node:assert/strict';
import { mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Subscription } from '../../../contract/api.js';
import { parseIdentity } from '../agents/claude/detect.js';
import { accountKeyOf } from '../agents/kit/account-key.js';
import { startTestDaemon, type TestDaemon } from '../testing/harness.js';

describe('subscriptions', { timeout: 90_000 }, () => {
  let daemon: TestDaemon;
  before(async () => {
    daemon = await startTestDaemon();
  });
  after(async () => {
    await daemon.close();
  });

  it('the demo subscription is built in and detects models without generating', async () => {
    const list = (await daemon.call<{ items: Subscription[] }>('GET', '/api/subscriptions')).body
      .items;
    assert.equal(list[0]!.id, 'demo');
    assert.equal(list[0]!.builtin, true);
    const detected = (await daemon.call<Subscription>('POST', '/api/subscriptions/demo/detect'))
      .body;
    assert.equal(detected.detect_error, null);
    assert.ok(detected.models.length > 0, 'models come from the initialize answer');
    assert.ok(detected.models.some((m) => m.supported_effort_levels.length > 0));
    assert.equal(detected.account?.['apiKeySource'], 'ANTHROPIC_API_KEY');
    const refused = await daemon.call('DELETE', '/api/subscriptions/demo');
    assert.equal(refused.status, 409);
  });

  it('creates, renames and deletes a subscription; validates its folder', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'relais-claude-config-'));
    const created = await daemon.call<Subscription>('POST', '/api/subscriptions', {
      name: 'Work',
      config_dir: folder,
    });
    assert.equal(created.status, 201);
    assert.equal(created.body.builtin, false);
    const renamed = await daemon.call<Subscription>(
      'PATCH',
      `/api/subscriptions/${created.body.id}`,
      { name: 'Work (team)' },
    );
    assert.equal(renamed.body.name, 'Work (team)');
    const relative = await daemon.call('POST', '/api/subscriptions', {
      name: 'Bad',
      config_dir: 'relative/path',
    });
    assert.equal(relative.status, 400);
    assert.equal(relative.body.error_code, 'invalid_config_dir');
    const missing = await daemon.call('POST', '/api/subscriptions', {
      name: 'Bad',
      config_dir: join(folder, 'nope'),
    });
    assert.equal(missing.status, 400);
    assert.equal(
      (await daemon.call('DELETE', `/api/subscriptions/${created.body.id}`)).status,
      204,
    );
    assert.equal((await daemon.call('GET', `/api/subscriptions/${created.body.id}`)).status, 404);
  });

  it('refuses a configuration folder in the data folder, the root or a system tree', async () => {
    const link = join(mkdtempSync(join(tmpdir(), 'relais-link-')), 'to-home');
    symlinkSync(daemon.home, link);
    const inside = join(daemon.home, 'subscriptions', 'demo');
    for (const config_dir of [daemon.home, inside, link, '/', '/proc', '/dev']) {
      const refused = await daemon.call('POST', '/api/subscriptions', { name: 'Bad', config_dir });
      assert.equal(refused.status, 400, config_dir);
      assert.equal(refused.body.error_code, 'invalid_config_dir');
    }
    const folder = mkdtempSync(join(tmpdir(), 'relais-claude-config-'));
    const created = await daemon.call<Subscription>('POST', '/api/subscriptions', {
      name: 'Fine',
      config_dir: folder,
    });
    const moved = await daemon.call('PATCH', `/api/subscriptions/${created.body.id}`, {
      config_dir: daemon.home,
    });
    assert.equal(moved.status, 400);
    assert.match(moved.body.message, /data folder/);
    await daemon.call('DELETE', `/api/subscriptions/${created.body.id}`);
  });

  it('two subscriptions on the same account are flagged', async () => {
    const [a, b] = await Promise.all(
      ['A', 'B'].map(
        async (name) =>
          (
            await daemon.call<Subscription>('POST', '/api/subscriptions', {
              name,
              config_dir: mkdtempSync(join(tmpdir(), 'relais-cfg-')),
            })
          ).body,
      ),
    );
    const key = accountKeyOf({ email: 'Dev@example.com', organization: 'Org' });
    daemon.relais.db
      .prepare('UPDATE subscriptions SET account_key = ? WHERE id IN (?, ?)')
      .run(key, a!.id, b!.id);
    const flagged = (await daemon.call<Subscription>('GET', `/api/subscriptions/${a!.id}`)).body;
    assert.deepEqual(flagged.shares_account_with, [b!.id]);
    assert.equal(
      accountKeyOf({ email: 'dev@example.com', organization: 'Org' }),
      key,
      'emails compare case-insensitively',
    );
    assert.equal(accountKeyOf({ apiKeySource: 'ANTHROPIC_API_KEY' }), null);
  });

  it('reads identity from an initialize answer', () => {
    const identity = parseIdentity({
      account: { email: 'a@b.c' },
      models: [
        { value: 'opus', displayName: 'Opus', supportedEffortLevels: ['low', 'high'] },
        { bad: true },
      ],
      claude_code_version: '2.1.332',
    });
    assert.deepEqual(identity.models, [
      {
        value: 'opus',
        display_name: 'Opus',
        description: null,
        supported_effort_levels: ['low', 'high'],
      },
    ]);
    assert.equal(identity.version, '2.1.332');
  });
});
