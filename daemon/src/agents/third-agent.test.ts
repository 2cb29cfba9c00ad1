import assert from 'node:assert/strict';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { spawnAgent } from '../processes/spawn-agent.js';
import { startTestDaemon, waitFor, type TestDaemon } from '../testing/harness.js';
import { silentReader } from '../testing/scripted-agent.js';
import type { AgentEntry, AgentHost, AgentProcess } from './agent.js';

/** A line agent: answers each JSON line `{"text"}` with `{"type":"answer","text":"echo: …"}`. */
const ECHO = `
const lines = require('node:readline').createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const { text } = JSON.parse(line);
  process.stdout.write(JSON.stringify({ type: 'answer', text: 'echo: ' + text }) + '\\n');
});`;

class EchoProcess implements AgentProcess {
  alive = true;
  readonly pid: number;

  constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly host: AgentHost,
  ) {
    this.pid = child.pid!;
    createInterface({ input: child.stdout }).on('line', (line) => {
      host.record('agent', line);
      host.onAnswered();
      host.onTurnEnd(null);
    });
    child.on('exit', (code, signal) => {
      this.alive = false;
      host.onExit(code, signal, []);
    });
  }

  initialize(): Promise<void> {
    return Promise.resolve();
  }

  send(text: string): void {
    const line = JSON.stringify({ text });
    this.host.record('host', line);
    this.child.stdin.write(`${line}\n`);
  }

  interrupt(): Promise<void> {
    return Promise.resolve();
  }

  steer(): Promise<boolean> {
    return Promise.resolve(false);
  }

  closeInput(): void {
    this.child.stdin.end();
  }
}

/** A third agent known only through the port: its own entry, nothing else of Relais changed. */
const echoAgent: AgentEntry = {
  kind: 'echo',
  reader: silentReader,
  transcripts: null,
  pinned: null,
  driver: () => ({
    kind: 'echo',
    reader: silentReader,
    libraryLayout: { file: (kind, name) => join('echo', kind, name) },
    detect: () => Promise.resolve({ account: {}, accountKey: null, models: [], version: null }),
    start: (_subscription, launch, host) =>
      new EchoProcess(
        spawnAgent({
          binary: process.execPath,
          args: ['-e', ECHO],
          cwd: launch.cwd,
          env: { PATH: process.env['PATH'] ?? '' },
          cage: launch.cage ?? null,
        }),
        host,
      ),
  }),
};

describe('a third agent registered through the port alone', () => {
  let daemon: TestDaemon;
  let workdir: string;

  before(async () => {
    workdir = mkdtempSync(join(tmpdir(), 'relais-echo-'));
    daemon = await startTestDaemon({ agents: [echoAgent] });
    daemon.relais.db
      .prepare(
        `INSERT INTO subscriptions (id, name, agent, config_dir, builtin, models_json, created_at)
         VALUES ('echo1', 'Echo', 'echo', ?, 0, '[]', ?)`,
      )
      .run(join(workdir, 'config'), new Date().toISOString());
  });

  after(async () => {
    await daemon?.close();
    rmSync(workdir, { recursive: true, force: true });
  });

  it('is launched over the API, answers two turns and stops, driven by the session manager', async () => {
    const { manager, events } = daemon.relais;
    const launched = await daemon.call<{ id: string; agent: string }>('POST', '/api/sessions', {
      subscription_id: 'echo1',
      model: 'echo-1',
      cwd: workdir,
      prompt: 'hello',
    });
    assert.equal(launched.status, 201, launched.text);
    assert.equal(launched.body.agent, 'echo');
    const id = launched.body.id;
    const answered = (text: string) => () =>
      events
        .read(id, { limit: 100 })
        .some((e) => e.source === 'agent' && e.data.includes(`echo: ${text}`)) || undefined;
    await waitFor('the first answer', answered('hello'));
    await waitFor('idle', () => manager.get(id).state === 'idle' || undefined);
    manager.send(id, 'again');
    await waitFor('the second answer', answered('again'));
    manager.stop(id);
    const ended = await waitFor('ended', () => {
      const session = manager.get(id);
      return session.state === 'ended' ? session : undefined;
    });
    assert.equal(ended.agent, 'echo');
    assert.equal(ended.end_reason, 'stopped');
    const overHttp = await daemon.call<{ agent: string; state: string }>(
      'GET',
      `/api/sessions/${id}`,
    );
    assert.deepEqual(
      [overHttp.status, overHttp.body.agent, overHttp.body.state],
      [200, 'echo', 'ended'],
    );
  });
});
