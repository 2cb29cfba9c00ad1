import assert from 'node:assert/strict';
import { readdirSync, readFileSync, readlinkSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { isAlive } from '../processes/process-groups.js';
import { startTestDaemon, type TestDaemon } from '../testing/harness.js';
import { ListingSlots, ListingsBusyError } from './listing-slots.js';
import { mcpInventory } from './inventory.js';
import { mcpSummary } from '../sessions/mcp-summary.js';

/** Every live process whose command line holds `marker`. */
function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'latin1').includes(marker)) found.push(+entry);
    } catch {
      // Gone meanwhile.
    }
  }
  return found.filter(isAlive);
}

/** The pipes this process holds open (a listing's child talks through three). */
function openPipes(): number {
  let pipes = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`).startsWith('pipe:')) pipes++;
    } catch {
      // Closed meanwhile.
    }
  }
  return pipes;
}

/** A stdio MCP server in a few lines: answers initialize and tools/list with the given names. */
const STDIO_SERVER = `
const names = JSON.parse(process.argv[2]);
let buffered = '';
process.stdin.on('data', (chunk) => {
  buffered += chunk;
  let at;
  while ((at = buffered.indexOf('\\n')) >= 0) {
    const line = buffered.slice(0, at);
    buffered = buffered.slice(at + 1);
    const message = JSON.parse(line);
    if (message.id === undefined) continue;
    const result = message.method === 'initialize'
      ? { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'x', version: '1' } }
      : { tools: names.map((name) => ({ name, inputSchema: { type: 'object' } })) };
    process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }) + '\\n');
  }
});
`;

const FLOOD = `
process.on('SIGTERM', () => undefined);
const line = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } }) + '\\n';
// Whole lines of at most PIPE_BUF bytes: a pipe write that small is atomic, so the two writers
// (the server and its child) never cut each other's lines into something that is not JSON-RPC.
const chunk = line.repeat(Math.floor(4096 / line.length));
const write = () => { while (process.stdout.write(chunk)); process.stdout.once('drain', write); };
write();
`;

describe('POST /api/mcp/tools with a command server', { timeout: 60_000 }, () => {
  let daemon: TestDaemon;
  let folder: string;
  let leaky: Server;
  let leakyUrl: string;
  before(async () => {
    daemon = await startTestDaemon({ listening: false });
    folder = mkdtempSync(join(tmpdir(), 'relais-mcp-'));
    writeFileSync(join(folder, 'server.js'), STDIO_SERVER);
    writeFileSync(join(folder, 'flood.js'), FLOOD);
    leaky = createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<html>Not found. debug: token=sk-live-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c</html>');
    });
    await new Promise<void>((resolve) => leaky.listen(0, '127.0.0.1', resolve));
    leakyUrl = `http://127.0.0.1:${(leaky.address() as AddressInfo).port}/mcp`;
  });
  after(async () => {
    leaky.close();
    await daemon.close();
  });

  it('a server that never answers leaves nothing running: not the server, not its child', async () => {
    const marker = `40.${process.pid}1`;
    const started = Date.now();
    const answer = await daemon.call('POST', '/api/mcp/tools', {
      server: { command: 'sh', args: ['-c', `sleep ${marker} & exec sleep ${marker}`] },
    });
    assert.equal(answer.status, 502, answer.text);
    assert.match(answer.body.message, /did not answer within/);
    assert.ok(Date.now() - started < 9000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(processesWith(`sleep\0${marker}`), []);
  });

  it('a child that left the group (setsid) is found by its tag and ended too', async () => {
    const marker = `43.${process.pid}7`;
    const answer = await daemon.call('POST', '/api/mcp/tools', {
      server: {
        command: 'sh',
        args: ['-c', `setsid sleep ${marker} & setsid -f sleep ${marker}; exec sleep ${marker}`],
      },
    });
    assert.equal(answer.status, 502, answer.text);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(processesWith(`sleep\0${marker}`), []);
  });

  it('lists a stdio server, ends its group, and skips the tool names off the rule', async () => {
    const marker = `relais-listing-${process.pid}`;
    const names = ['lookup', 'bad name', 'x,Bash', 'a'.repeat(65), 'ok-2', 'é', 'line\nbreak'];
    const answer = await daemon.call('POST', '/api/mcp/tools', {
      server: {
        command: 'sh',
        args: [
          '-c',
          `sleep 41.5 & exec node ${join(folder, 'server.js')} '${JSON.stringify(names)}' ${marker}`,
        ],
      },
    });
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(
      answer.body.tools.map((t: { name: string }) => t.name),
      ['lookup', 'ok-2'],
    );
    assert.equal(answer.body.skipped.length, 5);
    assert.match(answer.body.skipped[0].reason, /1 to 64 letters/);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(processesWith(marker), []);
    assert.deepEqual(processesWith('sleep\x0041.5'), []);
  });

  it('a client that goes away ends the listing and its process group at once', async () => {
    const marker = `42.${process.pid}3`;
    const body = JSON.stringify({
      server: { command: 'sh', args: ['-c', `sleep ${marker} & exec sleep ${marker}`] },
    });
    const request = httpRequest(`${daemon.base}/api/mcp/tools`, {
      method: 'POST',
      headers: { authorization: `Bearer ${daemon.key}`, 'content-type': 'application/json' },
    });
    request.on('error', () => undefined);
    request.end(body);
    const until = Date.now() + 3000;
    while (processesWith(`sleep\0${marker}`).length < 2 && Date.now() < until)
      await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(processesWith(`sleep\0${marker}`).length, 2, 'the server and its child ran');
    const aborted = Date.now();
    request.destroy();
    while (processesWith(`sleep\0${marker}`).length > 0 && Date.now() - aborted < 4000)
      await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(processesWith(`sleep\0${marker}`), []);
    assert.ok(Date.now() - aborted < 2000, `gone ${Date.now() - aborted} ms after the abort`);
  });

  it('a server flooding stdout (and its child) is cut: no child left, no descriptor open', async () => {
    const marker = join(folder, 'flood.js');
    const before = openPipes();
    const answer = await daemon.call('POST', '/api/mcp/tools', {
      server: { command: 'sh', args: ['-c', `node ${marker} & exec node ${marker}`] },
    });
    assert.equal(answer.status, 502, answer.text);
    assert.match(answer.body.message, /the server wrote over \d+ (messages|bytes)$/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(processesWith(marker), []);
    assert.ok(openPipes() <= before, `${before} pipes before, ${openPipes()} after`);
  });

  it('a command that does not exist is a clean 502', async () => {
    const answer = await daemon.call('POST', '/api/mcp/tools', {
      server: { command: join(folder, 'no-such-command') },
    });
    assert.equal(answer.status, 502, answer.text);
    assert.match(answer.body.message, /could not be listed: the connection failed \(ENOENT\)/);
  });

  it("never repeats a loopback service's answer: the status and a fixed phrase only", async () => {
    const answer = await daemon.call('POST', '/api/mcp/tools', { server: { url: leakyUrl } });
    assert.equal(answer.status, 502, answer.text);
    assert.doesNotMatch(answer.text, /sk-live|token|html|Not found/);
    assert.match(answer.body.message, /could not be listed: the server answered HTTP 404$/);
  });
});

describe('MCP servers listed at launch', { timeout: 30_000 }, () => {
  it("a tool name off the rule is never passed on, and the session's start says why", async () => {
    const folder = mkdtempSync(join(tmpdir(), 'relais-mcp-'));
    writeFileSync(join(folder, 'server.js'), STDIO_SERVER);
    const names = ['find', 'erase', 'x,Bash', 'a b'];
    const servers = {
      docs: {
        command: 'node',
        args: [join(folder, 'server.js'), JSON.stringify(names)],
        allowed_tools: ['find'],
      },
    };
    const listed = await mcpInventory(servers, { cwd: folder, home: folder });
    assert.deepEqual(listed.inventory, { docs: ['find', 'erase'] });
    const summary = mcpSummary(servers, listed)['docs']!;
    assert.deepEqual(summary.hidden_tools, ['mcp__docs__erase']);
    assert.deepEqual(
      summary.skipped_tools.map((t) => t.name),
      ['"x,Bash"', '"a b"'],
    );
  });
});

describe('ListingSlots', () => {
  it('runs at most n at once, queues at most m, refuses the rest and hands slots on', async () => {
    const slots = new ListingSlots(1, 1);
    const never = new AbortController().signal;
    const first = await slots.acquire(never);
    let secondIn = false;
    const second = slots.acquire(never).then((release) => ((secondIn = true), release));
    await assert.rejects(slots.acquire(never), ListingsBusyError);
    assert.equal(secondIn, false);
    first();
    first(); // Twice is once.
    (await second)();
    assert.equal(slots.inUse, 0);
  });

  it('a listing whose deadline passes while it waits leaves the line', async () => {
    const slots = new ListingSlots(1, 4);
    const held = await slots.acquire(new AbortController().signal);
    const deadline = new AbortController();
    setTimeout(() => deadline.abort(), 50);
    await assert.rejects(slots.acquire(deadline.signal), /deadline passed/);
    held();
    assert.equal(slots.inUse, 0);
    (await slots.acquire(new AbortController().signal))();
  });
});
