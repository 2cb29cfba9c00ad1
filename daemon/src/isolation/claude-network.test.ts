import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { PermissionRequest } from '../../../contract/api.js';
import { startTestDaemon, type TestDaemon } from '../testing/harness.js';
import { SessionDriver } from '../testing/session-driver.js';
import { workdir } from '../testing/fixtures.js';

/** Runs a command (allowed once), then answers the network prompt it raises. */
async function connect(
  daemon: TestDaemon,
  command: string,
  decision: 'allow' | 'deny',
): Promise<{ asked: PermissionRequest; output: string }> {
  const s = await SessionDriver.launch(daemon, {
    cwd: workdir(),
    prompt: `demo:bash ${command}`,
  });
  const bash = await s.pendingPermission();
  await s.decide(bash.id, { decision: 'allow' });
  const asked = await s.waitFor('the network prompt', async () => {
    const list = await daemon.call<{ items: PermissionRequest[] }>(
      'GET',
      `/api/permissions?state=pending&session=${s.id}`,
    );
    return list.body.items.find((p) => p.tool_name === 'Network');
  });
  await s.decide(asked.id, { decision });
  await s.waitResults(1);
  const events = JSON.stringify(await s.events());
  return { asked, output: /"tool_result","content":"((?:[^"\\]|\\.)*)"/.exec(events)?.[1] ?? '' };
}

describe('Claude sessions: a new destination is a prompt', { timeout: 120_000 }, () => {
  let daemon: TestDaemon;
  let server: Server;
  let hits = 0;
  before(async () => {
    server = createServer((_, response) => {
      hits++;
      response.end('HELLO-FROM-THE-HOST');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    daemon = await startTestDaemon();
  });
  after(async () => {
    await daemon.close();
    server.close();
  });

  it('refused: the command fails and nothing reaches the host', async () => {
    const port = (server.address() as AddressInfo).port;
    const { asked, output } = await connect(
      daemon,
      `curl -s -m 20 --noproxy '' -x "$http_proxy" http://127.0.0.1:${port}/`,
      'deny',
    );
    assert.deepEqual(asked.input, { host: '127.0.0.1', port });
    assert.match(output, /refused/);
    assert.doesNotMatch(output, /HELLO-FROM-THE-HOST/);
    assert.equal(hits, 0);
  });

  it('allowed: the command reaches the host', async () => {
    const port = (server.address() as AddressInfo).port;
    const { output } = await connect(
      daemon,
      `curl -s -m 20 --noproxy '' -x "$http_proxy" http://127.0.0.1:${port}/`,
      'allow',
    );
    assert.match(output, /HELLO-FROM-THE-HOST/);
    assert.equal(hits, 1);
  });

  it('a host by name is asked by name; refused, HTTPS fails too', async () => {
    const { asked, output } = await connect(
      daemon,
      'curl -s -m 20 https://relais-blocked.invalid/',
      'deny',
    );
    assert.deepEqual(asked.input, { host: 'relais-blocked.invalid', port: 443 });
    assert.doesNotMatch(output, /HELLO/);
  });
});
