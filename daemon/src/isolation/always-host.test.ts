import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { AllowedHost, PermissionRequest } from '../../../contract/api.js';
import { CODEX_DEMO_SUBSCRIPTION_ID } from '../subscriptions/subscription-service.js';
import { startTestDaemon, type TestDaemon } from '../testing/harness.js';
import { SessionDriver } from '../testing/session-driver.js';
import { workdir } from '../testing/fixtures.js';

interface Run {
  session: SessionDriver;
  /** The Network prompt the command raised, if any. */
  asked: PermissionRequest | null;
  output: string;
}

/**
 * A new session runs one curl (the Bash prompt allowed once); a Network prompt, when one comes, gets
 * `answer`; without one, the command simply finishes.
 */
async function curlIn(
  daemon: TestDaemon,
  port: number,
  answer: Record<string, unknown> | null,
): Promise<Run> {
  const session = await SessionDriver.launch(daemon, {
    cwd: workdir(),
    prompt: `demo:bash curl -s -m 20 --noproxy '' -x "$http_proxy" http://127.0.0.1:${port}/`,
  });
  const bash = await session.pendingPermission();
  assert.equal(bash.tool_name, 'Bash');
  await session.decide(bash.id, { decision: 'allow' });
  let asked: PermissionRequest | null = null;
  if (answer) {
    asked = await session.pendingPermission();
    assert.equal(asked.tool_name, 'Network');
    await session.decide(asked.id, answer);
  }
  await session.waitResults(1);
  const events = JSON.stringify(await session.events());
  const output = /"tool_result","content":"((?:[^"\\]|\\.)*)"/.exec(events)?.[1] ?? '';
  return { session, asked, output };
}

/** The same curl in a Codex session, whose jail's one way out is its own gate. */
async function codexCurl(daemon: TestDaemon, port: number): Promise<Run> {
  const session = await SessionDriver.launch(daemon, {
    subscription_id: CODEX_DEMO_SUBSCRIPTION_ID,
    model: 'gpt-5.5',
    cwd: workdir(),
    prompt: `demo:bash curl -s -m 20 http://127.0.0.1:${port}/`,
  });
  await session.decide((await session.pendingPermission()).id, { decision: 'allow' });
  await session.waitFor('the turn completed', async () =>
    (await session.events()).some(
      (e) => (e.data as Record<string, unknown>)['method'] === 'turn/completed',
    ),
  );
  return { session, asked: null, output: JSON.stringify(await session.events()) };
}

async function networkPrompts(daemon: TestDaemon, sessionId: string): Promise<number> {
  const list = await daemon.call<{ items: PermissionRequest[] }>(
    'GET',
    `/api/permissions?session=${sessionId}`,
  );
  return list.body.items.filter((p) => p.tool_name === 'Network').length;
}

describe('"Always for this host": a remembered destination', { timeout: 240_000 }, () => {
  const home = mkdtempSync(join(tmpdir(), 'relais-test-'));
  let daemon: TestDaemon;
  let server: Server;
  let port = 0;
  before(async () => {
    server = createServer((_, response) => response.end('HELLO-FROM-THE-HOST'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    daemon = await startTestDaemon({ home });
  });
  after(async () => {
    await daemon.close();
    server.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('answered always: the host is listed, and a new session reaches it without a prompt', async () => {
    const first = await curlIn(daemon, port, { decision: 'allow', scope: 'always' });
    assert.match(first.output, /HELLO-FROM-THE-HOST/);
    assert.equal(first.asked?.scope, null); // still pending when read: settled below
    const settled = await daemon.call<{ items: PermissionRequest[] }>(
      'GET',
      `/api/permissions?session=${first.session.id}`,
    );
    assert.equal(settled.body.items.find((p) => p.tool_name === 'Network')?.scope, 'always');
    const hosts = await daemon.call<{ items: AllowedHost[] }>('GET', '/api/allowed-hosts');
    assert.deepEqual(
      hosts.body.items.map((h) => [h.host, h.port]),
      [['127.0.0.1', port]],
    );
    const second = await curlIn(daemon, port, null);
    assert.match(second.output, /HELLO-FROM-THE-HOST/);
    assert.equal(await networkPrompts(daemon, second.session.id), 0);
  });

  it('a Codex session reaches it without a prompt too', async () => {
    const run = await codexCurl(daemon, port);
    assert.match(run.output, /HELLO-FROM-THE-HOST/);
    assert.equal(await networkPrompts(daemon, run.session.id), 0);
  });

  it('a restart of the daemon keeps it', async () => {
    await daemon.close();
    daemon = await startTestDaemon({ home });
    const run = await curlIn(daemon, port, null);
    assert.match(run.output, /HELLO-FROM-THE-HOST/);
    assert.equal(await networkPrompts(daemon, run.session.id), 0);
  });

  it('removed: the next connection prompts again', async () => {
    const removed = await daemon.call('DELETE', `/api/allowed-hosts/127.0.0.1/${port}`);
    assert.equal(removed.status, 204);
    const again = await daemon.call('DELETE', `/api/allowed-hosts/127.0.0.1/${port}`);
    assert.equal(again.status, 404);
    assert.equal(again.body.error_code, 'not_found');
    const hosts = await daemon.call<{ items: AllowedHost[] }>('GET', '/api/allowed-hosts');
    assert.deepEqual(hosts.body.items, []);
    const run = await curlIn(daemon, port, { decision: 'deny' });
    assert.deepEqual(run.asked?.input, { host: '127.0.0.1', port });
    assert.doesNotMatch(run.output, /HELLO-FROM-THE-HOST/);
  });

  it('always is refused with 400 on any other prompt, and with a deny; the prompt stays pending', async () => {
    const session = await SessionDriver.launch(daemon, {
      cwd: workdir(),
      prompt: 'demo:bash touch x.txt',
    });
    const bash = await session.pendingPermission();
    for (const decision of ['allow', 'deny']) {
      const answer = await daemon.call('POST', `/api/permissions/${bash.id}/decision`, {
        decision,
        scope: 'always',
      });
      assert.equal(answer.status, 400);
      assert.equal(answer.body.error_code, 'scope_not_allowed');
      assert.match(answer.body.message, /Network/);
    }
    const still = await session.pendingPermission();
    assert.equal(still.id, bash.id);
    await session.decide(bash.id, { decision: 'deny' });
    const hosts = await daemon.call<{ items: AllowedHost[] }>('GET', '/api/allowed-hosts');
    assert.deepEqual(hosts.body.items, []);
  });

  it('a bad host or port to remove is a 400, 404 or 414, never a 500', async () => {
    for (const path of [
      '/api/allowed-hosts/a%20b/80',
      '/api/allowed-hosts/x/0',
      '/api/allowed-hosts/x/99999',
      '/api/allowed-hosts/x/8o',
      '/api/allowed-hosts/%5B%3A%3A1%5D/443',
      `/api/allowed-hosts/${'a'.repeat(300)}/443`,
      '/api/allowed-hosts/a%2Fb/443',
    ]) {
      const answer = await daemon.call('DELETE', path);
      assert.ok([400, 404, 414].includes(answer.status), `${path}: ${answer.status}`);
      assert.ok(typeof answer.body.error_code === 'string');
    }
  });
});
