import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { startTestDaemon } from '../testing/harness.js';
import { sessionsPlugin } from './sessions.js';

async function reachable(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(2000) });
    return true;
  } catch {
    return false;
  }
}

describe('capability plugins', () => {
  it('starts the scripted demo services as a plugin when no URL is given, and stops them on close', async () => {
    const daemon = await startTestDaemon({ config: { demoModelUrl: null } });
    const app = daemon.relais.app;
    assert.ok(app.hasPlugin('relais-demo'));
    const demo = app.getDecorator<{ modelUrl: string; quotaUrl: string }>('demo');
    assert.match(demo.modelUrl, /^http:\/\/127\.0\.0\.1:\d+/);
    assert.match(demo.quotaUrl, /^http:\/\/127\.0\.0\.1:\d+/);
    assert.ok(await reachable(demo.modelUrl));
    await daemon.close();
    assert.equal(await reachable(demo.modelUrl), false, 'the model stopped with the daemon');
    assert.equal(await reachable(demo.quotaUrl), false, 'the quota endpoint stopped too');
  });

  it('registers no demo plugin when both demo URLs are given (nothing of fakes/ is loaded)', async () => {
    const saved = process.env['RELAIS_QUOTA_DEMO_URL'];
    process.env['RELAIS_QUOTA_DEMO_URL'] = 'http://127.0.0.1:9';
    try {
      const daemon = await startTestDaemon({ config: { demoModelUrl: 'http://127.0.0.1:9' } });
      assert.equal(daemon.relais.app.hasPlugin('relais-demo'), false);
      await daemon.close();
    } finally {
      if (saved === undefined) delete process.env['RELAIS_QUOTA_DEMO_URL'];
      else process.env['RELAIS_QUOTA_DEMO_URL'] = saved;
    }
  });

  it('refuses a capability registered before the plugins it declares it needs', async () => {
    const app = Fastify();
    await assert.rejects(
      async () => {
        await app.register(sessionsPlugin);
      },
      {
        code: 'FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED',
        message: /'relais-core' of plugin 'relais-sessions'/,
      },
    );
    await app.close();
  });
});
