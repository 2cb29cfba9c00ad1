import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startDemoModel, type DemoModel } from '../../../fakes/demo-model/server.js';
import { startFakeMcpServer, type FakeMcpServer } from '../../../fakes/mcp-server/server.js';
import { rawRequest, startTestDaemon, type TestDaemon } from '../testing/harness.js';
import { SessionDriver } from '../testing/session-driver.js';
import { workdir } from '../testing/fixtures.js';

describe('MCP servers given at launch, with the real Claude Code', { timeout: 240_000 }, () => {
  let daemon: TestDaemon;
  let model: DemoModel;
  let catalogue: FakeMcpServer;
  before(async () => {
    model = await startDemoModel();
    catalogue = await startFakeMcpServer();
    daemon = await startTestDaemon({ config: { demoModelUrl: model.url } });
  });
  after(async () => {
    await daemon.close();
    await catalogue.close();
    await model.close();
  });

  it('the agent is offered only the allowed tool, and the unlisted one never runs', async () => {
    const s = await SessionDriver.launch(daemon, {
      cwd: workdir(),
      prompt: 'demo:mcp catalogue lookup delete_item',
      mcp_servers: { catalogue: { url: catalogue.url, allowed_tools: ['lookup'] } },
    });
    const permission = await s.pendingPermission();
    assert.equal(permission.tool_name, 'mcp__catalogue__lookup');
    await s.decide(permission.id, { decision: 'allow' });
    await s.waitResults(1);
    assert.deepEqual(catalogue.calls, [{ tool: 'lookup', args: { code: 'A1' } }]);
    const offered = model.requests
      .filter((r) => r.script === 'mcp')
      .flatMap((r) => r.tools ?? [])
      .filter((name) => name.startsWith('mcp__'));
    assert.ok(offered.length > 0, 'the model was offered MCP tools');
    assert.deepEqual([...new Set(offered)], ['mcp__catalogue__lookup']);
    const texts = await s.assistantTexts();
    const last = texts[texts.length - 1]!;
    assert.match(last, /Offered: mcp__catalogue__lookup\n/);
    assert.match(last, /lookup: A1: blue mug/);
    assert.doesNotMatch(last, /delete_item: A1: deleted/);
    const created = (await s.events()).find(
      (e) => (e.data as Record<string, unknown>)['subtype'] === 'session_created',
    )!.data as Record<string, any>;
    assert.deepEqual(created['mcp_servers']['catalogue']['hidden_tools'], [
      'mcp__catalogue__stock',
      'mcp__catalogue__delete_item',
    ]);
  });

  it('a tool the server added after launch reaches the agent, and the engine refuses it', async () => {
    const changing = await startFakeMcpServer({ lateTool: true });
    try {
      const s = await SessionDriver.launch(daemon, {
        cwd: workdir(),
        prompt: 'demo:mcp catalogue restock',
        mcp_servers: { catalogue: { url: changing.url, allowed_tools: ['lookup'] } },
      });
      await s.waitResults(1);
      assert.deepEqual(changing.calls, [], 'the refused tool ran');
      const texts = await s.assistantTexts();
      assert.match(
        texts[texts.length - 1]!,
        /Offered: mcp__catalogue__lookup, mcp__catalogue__restock/,
      );
      assert.match(
        texts[texts.length - 1]!,
        /restock: .*Refused by the permission gate — rule "mcp-allowed-tools"/,
      );
      const audit = (await daemon.call('GET', `/api/audit?session=${s.id}`)).body.items;
      assert.deepEqual(
        [audit[0].tool_name, audit[0].decision, audit[0].step, audit[0].rule],
        ['mcp__catalogue__restock', 'deny', 'mcp', 'mcp-allowed-tools'],
      );
    } finally {
      await changing.close();
    }
  });

  it("no MCP server of the user's or the project's settings reaches a session", async () => {
    const cwd = workdir();
    const project = { mcpServers: { stray: { type: 'http', url: catalogue.url } } };
    writeFileSync(join(cwd, '.mcp.json'), JSON.stringify(project));
    const before = catalogue.calls.length;
    const s = await SessionDriver.launch(daemon, { cwd, prompt: 'demo:mcp stray lookup' });
    await s.waitResults(1);
    const [init] = await s.agentLines('system');
    assert.deepEqual(init!['mcp_servers'], []);
    assert.ok(!(init!['tools'] as string[]).some((t) => t.startsWith('mcp__')));
    assert.equal(catalogue.calls.length, before);
  });

  it('refuses more than 8 servers, an empty or oversized allow-list, and odd names', async () => {
    const launch = (mcp_servers: unknown) =>
      daemon.call('POST', '/api/sessions', {
        subscription_id: 'demo',
        model: 'demo-sonnet',
        cwd: workdir(),
        mcp_servers,
      });
    const server = { url: catalogue.url, allowed_tools: ['lookup'] };
    const nine = Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`s${i}`, server]));
    const cases: [unknown, RegExp][] = [
      [nine, /1 to 8 servers/],
      [{ a: { ...server, allowed_tools: [] } }, /allowed_tools lists 1 to 100/],
      [
        { a: { ...server, allowed_tools: Array.from({ length: 101 }, (_, i) => `t${i}`) } },
        /allowed_tools lists 1 to 100/,
      ],
      [{ a: { allowed_tools: ['x'] } }, /either a command \(stdio\) or a url/],
      [{ a__b: server }, /without "__"/],
      [{ a: { ...server, allowed_tools: ['x__y'] } }, /without "__"/],
      [{ a: { ...server, url: 'http://10.0.0.8/mcp' } }, /loopback only/],
      [{ a: { ...server, url: 'file:///etc/passwd' } }, /http or https/],
      [{ a: { ...server, url: 'http://me:pw@127.0.0.1/mcp' } }, /credentials/],
    ];
    for (const [servers, reason] of cases) {
      const answer = await launch(servers);
      assert.equal(answer.status, 400, JSON.stringify(servers).slice(0, 80));
      assert.equal(answer.body.error_code, 'invalid_request');
      assert.match(answer.body.message, reason);
    }
  });
});

describe('POST /api/mcp/tools', { timeout: 60_000 }, () => {
  let daemon: TestDaemon;
  let catalogue: FakeMcpServer;
  let redirector: Server;
  let redirectUrl: string;
  before(async () => {
    catalogue = await startFakeMcpServer();
    daemon = await startTestDaemon({ listening: false });
    redirector = createServer((_req, res) => {
      res.writeHead(307, { location: catalogue.url }).end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    redirectUrl = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}/mcp`;
  });
  after(async () => {
    redirector.close();
    await daemon.close();
    await catalogue.close();
  });

  it("lists a server's tools", async () => {
    const answer = await daemon.call('POST', '/api/mcp/tools', { server: { url: catalogue.url } });
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(
      answer.body.tools.map((t: { name: string }) => t.name),
      ['lookup', 'stock', 'delete_item'],
    );
  });

  it('needs the key', async () => {
    const answer = await rawRequest(
      daemon.base,
      'POST',
      '/api/mcp/tools',
      JSON.stringify({ server: { url: catalogue.url } }),
      { 'content-type': 'application/json' },
    );
    assert.equal(answer.status, 401);
    assert.equal(catalogue.listings, 1, 'the server was not reached without the key');
  });

  it('follows no redirect, reaches no plain-http host off loopback, reports an unreachable one', async () => {
    const redirected = await daemon.call('POST', '/api/mcp/tools', {
      server: { url: redirectUrl },
    });
    assert.equal(redirected.status, 502, redirected.text);
    assert.equal(redirected.body.error_code, 'mcp_unreachable');
    const remote = await daemon.call('POST', '/api/mcp/tools', {
      server: { url: 'http://192.168.1.1/mcp' },
    });
    assert.equal(remote.status, 400);
    const closed = await daemon.call('POST', '/api/mcp/tools', {
      server: { url: 'http://127.0.0.1:1/mcp' },
    });
    assert.equal(closed.status, 502);
    assert.match(closed.body.message, /could not be listed/);
  });
});
