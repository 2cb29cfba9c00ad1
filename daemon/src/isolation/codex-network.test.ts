import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { PermissionRequest } from '../../../contract/api.js';
import { CODEX_DEMO_SUBSCRIPTION_ID } from '../subscriptions/subscription-service.js';
import { startTestDaemon, type TestDaemon } from '../testing/harness.js';
import { SessionDriver } from '../testing/session-driver.js';
import { workdir } from '../testing/fixtures.js';

async function run(
  daemon: TestDaemon,
  command: string,
  network: 'allow' | 'deny' | null,
): Promise<{ asked: PermissionRequest | null; recorded: string }> {
  const s = await SessionDriver.launch(daemon, {
    subscription_id: CODEX_DEMO_SUBSCRIPTION_ID,
    model: 'gpt-5.5',
    cwd: workdir(),
    prompt: `demo:bash ${command}`,
  });
  await s.decide((await s.pendingPermission()).id, { decision: 'allow' });
  let asked: PermissionRequest | null = null;
  if (network) {
    asked = await s.waitFor('the network prompt', async () => {
      const list = await daemon.call<{ items: PermissionRequest[] }>(
        'GET',
        `/api/permissions?state=pending&session=${s.id}`,
      );
      return list.body.items.find((p) => p.tool_name === 'Network');
    });
    await s.decide(asked.id, { decision: network });
  }
  await s.waitFor('the turn completed', async () =>
    (await s.events()).some(
      (e) => (e.data as Record<string, unknown>)['method'] === 'turn/completed',
    ),
  );
  return { asked, recorded: JSON.stringify(await s.events()) };
}

describe('Codex sessions: a new destination is a prompt', { timeout: 150_000 }, () => {
  let daemon: TestDaemon;
  let server: Server;
  let hits = 0;
  let port = 0;
  before(async () => {
    server = createServer((_, response) => {
      hits++;
      response.end('HELLO-FROM-THE-HOST');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    daemon = await startTestDaemon();
  });
  after(async () => {
    await daemon.close();
    server.close();
  });

  it('refused: the command fails and nothing reaches the host', async () => {
    const { asked, recorded } = await run(
      daemon,
      `curl -s -m 20 http://127.0.0.1:${port}/`,
      'deny',
    );
    assert.deepEqual(asked!.input, { host: '127.0.0.1', port });
    assert.doesNotMatch(recorded, /HELLO-FROM-THE-HOST/);
    assert.equal(hits, 0);
  });

  it('around the proxy there is no way out', async () => {
    const { recorded } = await run(
      daemon,
      `curl -s -m 10 --noproxy '*' http://127.0.0.1:${port}/; echo exit=$?`,
      null,
    );
    assert.match(recorded, /exit=7/);
    assert.equal(hits, 0);
  });

  it('allowed: the command reaches the host', async () => {
    const { recorded } = await run(daemon, `curl -s -m 20 http://127.0.0.1:${port}/`, 'allow');
    assert.match(recorded, /HELLO-FROM-THE-HOST/);
    assert.equal(hits, 1);
  });
});
