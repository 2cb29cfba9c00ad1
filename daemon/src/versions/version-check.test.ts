import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startFakeRegistry, type FakeRegistry } from '../../../fakes/npm-registry/server.js';
import { compareVersions, npmLatest, VersionChecker } from './version-check.js';

describe(
  'version cards against a registry on loopback (through npm itself)',
  { timeout: 120_000 },
  () => {
    let registry: FakeRegistry;
    let env: NodeJS.ProcessEnv;
    before(async () => {
      registry = await startFakeRegistry();
      env = {
        ...process.env,
        npm_config_registry: registry.url,
        npm_config_cache: mkdtempSync(join(tmpdir(), 'relais-npm-cache-')),
      };
    });
    after(async () => {
      await registry.close();
    });
    const checker = (e: NodeJS.ProcessEnv = env): VersionChecker =>
      new VersionChecker(
        [{ agent: 'claude', package: '@anthropic-ai/claude-code', pinned: () => '2.1.332' }],
        npmLatest(e),
      );

    it('same version', async () => {
      registry.latest.set('@anthropic-ai/claude-code', '2.1.332');
      const [card] = await checker().get();
      assert.equal(card!.status, 'same');
      assert.equal(card!.latest, '2.1.332');
      assert.ok(
        registry.requests.includes('@anthropic-ai/claude-code'),
        'npm asked the configured registry',
      );
    });

    it('a newer version is "not yet validated"', async () => {
      registry.latest.set('@anthropic-ai/claude-code', '2.1.400');
      const [card] = await checker().get(true);
      assert.equal(card!.status, 'newer');
      assert.match(card!.reason ?? '', /not yet validated/);
    });

    it('an unreachable registry gives unknown, with the reason', async () => {
      const [card] = await checker({
        ...env,
        npm_config_registry: 'http://127.0.0.1:9/',
        npm_config_fetch_retries: '0',
      }).get();
      assert.equal(card!.status, 'unknown');
      assert.equal(card!.latest, null);
      assert.ok(card!.reason && card!.reason.length > 10);
    });

    it('caches, and refreshes on demand', async () => {
      let asked = 0;
      const c = new VersionChecker(
        [{ agent: 'claude', package: 'p', pinned: () => '1.0.0' }],
        async () => (asked++, '1.0.0'),
      );
      await c.get();
      await c.get();
      assert.equal(asked, 1);
      await c.get(true);
      assert.equal(asked, 2);
    });

    it('compares versions numerically', () => {
      assert.equal(compareVersions('2.1.10', '2.1.9'), 1);
      assert.equal(compareVersions('2.1.9', '2.1.9'), 0);
      assert.equal(compareVersions('2.2.0-beta', '2.2.0'), -1);
    });
  },
);
