import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it, mock } from 'node:test';
import { build, type Relais } from '../app.js';
import { configFromEnv } from '../config.js';
import { workdir } from '../testing/fixtures.js';
import { waitFor } from '../testing/harness.js';
import {
  insertSubscription,
  scriptedAgent,
  type ScriptedProcess,
} from '../testing/scripted-agent.js';

/**
 * The session state machine driven through the agent port by a scripted agent: no agent process,
 * no listening socket (requests go through Fastify's inject), each transition in a few milliseconds.
 */
describe('session states with a scripted agent', () => {
  const agent = scriptedAgent();
  const homes: string[] = [];
  let relais: Relais;
  let cwd: string;

  before(async () => {
    const home = mkdtempSync(join(tmpdir(), 'relais-states-'));
    cwd = workdir();
    homes.push(home, cwd);
    relais = await build(
      {
        ...configFromEnv({ RELAIS_HOME: home, RELAIS_AGENT_HOME: cwd }),
        port: 0,
        consoleDir: null,
        logLevel: 'error',
        stopGraceMs: 200,
        isolation: false,
        historyWatch: false,
      },
      { agents: [agent.entry] },
    );
    insertSubscription(relais.db, 'scripted1', 'scripted', join(cwd, 'config'));
  });

  after(async () => {
    // The daemon's shutdown stops every session still live and waits for its agent to go.
    for (const process of agent.started) {
      process.exitOnClose = true;
      if (process.inputClosed) process.exit(0);
    }
    await relais?.close();
    for (const folder of homes) rmSync(folder, { recursive: true, force: true });
  });

  async function call<T = any>(method: 'GET' | 'POST', url: string, payload?: object) {
    const reply = await relais.app.inject({
      method,
      url,
      headers: {
        host: `127.0.0.1:${relais.port()}`,
        authorization: `Bearer ${relais.apiKey}`,
      },
      ...(payload ? { payload } : {}),
    });
    return { status: reply.statusCode, body: reply.json() as T, text: reply.body };
  }

  /** Launches a session; returns its id and the scripted process the driver started for it. */
  async function launch(fields: Record<string, unknown> = {}) {
    const before = agent.started.length;
    const launched = await call<{ id: string; state: string }>('POST', '/api/sessions', {
      subscription_id: 'scripted1',
      model: 'scripted-1',
      cwd,
      ...fields,
    });
    assert.equal(launched.status, 201, launched.text);
    assert.equal(launched.body.state, 'starting');
    assert.equal(agent.started.length, before + 1, 'the driver started one process');
    return { id: launched.body.id, process: agent.started.at(-1)! };
  }

  /** Lets the promises the launch started settle (the handshake's), without any timer. */
  const settled = () => new Promise<void>((resolve) => setImmediate(resolve));
  const stateOf = (id: string) => relais.manager.get(id).state;
  const reach = (id: string, state: string) =>
    waitFor(`state ${state}`, () => stateOf(id) === state || undefined, 2000);

  /** The states the session announced in its event log, in order. */
  function statesSaid(id: string): string[] {
    return relais.events
      .read(id, { limit: 1000 })
      .filter((event) => event.source === 'relais')
      .map((event) => JSON.parse(event.data) as { subtype?: string; state?: string })
      .filter((line) => line.subtype === 'state')
      .map((line) => line.state!);
  }

  async function started(fields: Record<string, unknown> = {}) {
    const session = await launch(fields);
    session.process.greet();
    return session;
  }

  it('launch → idle after the handshake → working on the prompt → idle at the turn end', async () => {
    const { id, process } = await launch({ prompt: 'hello' });
    assert.equal(stateOf(id), 'starting');
    process.greet();
    await reach(id, 'working');
    assert.deepEqual(process.sent, ['hello']);
    process.finishTurn();
    await reach(id, 'idle');
    assert.deepEqual(statesSaid(id), ['idle', 'working', 'idle']);
    assert.equal(relais.manager.get(id).turns, 1);
  });

  it('a message while working is queued, then delivered at the turn end', async () => {
    const { id, process } = await started({ prompt: 'first' });
    await reach(id, 'working');
    const queued = await call<{ delivery: string }>('POST', `/api/sessions/${id}/messages`, {
      text: 'second',
    });
    assert.equal(queued.body.delivery, 'queued', queued.text);
    assert.deepEqual(process.sent, ['first']);
    process.finishTurn();
    await waitFor('the queued message sent', () => process.sent.length === 2 || undefined, 2000);
    assert.deepEqual(process.sent, ['first', 'second']);
    assert.equal(stateOf(id), 'working');
    const idle = await call<{ delivery: string }>('POST', `/api/sessions/${id}/messages`, {
      text: 'third',
    });
    assert.equal(idle.body.delivery, 'queued');
    process.finishTurn();
    process.finishTurn();
    await reach(id, 'idle');
    const now = await call<{ delivery: string }>('POST', `/api/sessions/${id}/messages`, {
      text: 'fourth',
    });
    assert.equal(now.body.delivery, 'sent', 'an idle session takes a message at once');
    assert.deepEqual(process.sent, ['first', 'second', 'third', 'fourth']);
  });

  it('a permission request that needs a person makes it waiting, the answer working again', async () => {
    const stopListening = relais.hub.subscribe(() => undefined);
    try {
      const { id, process } = await started({ prompt: 'write', permission_mode: 'write' });
      await reach(id, 'working');
      const answer = process.ask('Bash', { command: 'touch made-by-the-agent' });
      await reach(id, 'waiting');
      const pending = await call<{ items: { id: string }[] }>(
        'GET',
        `/api/permissions?session=${id}&state=pending`,
      );
      assert.equal(pending.body.items.length, 1, pending.text);
      const decided = await call('POST', `/api/permissions/${pending.body.items[0]!.id}/decision`, {
        decision: 'allow',
      });
      assert.equal(decided.status, 200, decided.text);
      assert.equal((await answer).behavior, 'allow');
      await reach(id, 'working');
    } finally {
      stopListening();
    }
  });

  it('stop: stopping with the input closed, then ended "stopped" once the agent exits', async () => {
    const { id, process } = await started({ prompt: 'long work' });
    await reach(id, 'working');
    const stopped = await call<{ state: string }>('POST', `/api/sessions/${id}/stop`);
    assert.equal(stopped.body.state, 'stopping', stopped.text);
    assert.equal(process.inputClosed, true);
    assert.equal(process.interrupts, 1, 'the open turn is interrupted');
    const refused = await call('POST', `/api/sessions/${id}/messages`, { text: 'late' });
    assert.equal(refused.status, 409, 'a stopping session takes no message');
    process.exit(0);
    await reach(id, 'ended');
    assert.equal(relais.manager.get(id).end_reason, 'stopped');
  });

  it('a crash while working ends it "agent_exited" with the last error line', async () => {
    const { id, process } = await started({ prompt: 'work' });
    await reach(id, 'working');
    process.exit(3, ['starting…', 'fatal: out of cheese', '']);
    await reach(id, 'ended');
    const session = relais.manager.get(id);
    assert.equal(session.end_reason, 'agent_exited');
    assert.equal(session.end_detail, 'fatal: out of cheese');
  });

  it('an exit before the handshake ends it "start_failed"', async () => {
    const { id, process } = await launch({ prompt: 'never sent' });
    process.exit(1, ['no such model']);
    await reach(id, 'ended');
    const session = relais.manager.get(id);
    assert.equal(session.end_reason, 'start_failed');
    assert.equal(session.end_detail, 'no such model');
    assert.deepEqual(process.sent, []);
  });

  it('the deadline stops an idle session: ended "expired"', async () => {
    // The shortest deadline a launch may ask is 10 s: the clock of the timers is moved instead.
    mock.timers.enable({ apis: ['setTimeout'] });
    let id: string;
    let process: ScriptedProcess;
    try {
      ({ id, process } = await started({ ttl_seconds: 10 }));
      await settled();
      assert.equal(stateOf(id), 'idle');
      mock.timers.tick(9_000);
      assert.equal(stateOf(id), 'idle', 'not before its deadline');
      mock.timers.tick(1_000);
      assert.equal(stateOf(id), 'stopping');
      assert.equal(process.inputClosed, true);
    } finally {
      mock.timers.reset();
    }
    process.exit(0);
    await reach(id, 'ended');
    assert.equal(relais.manager.get(id).end_reason, 'expired');
  });

  it('resume starts a new process on the same conversation of an ended session', async () => {
    const conversation = randomUUID();
    const { id, process } = await started({ prompt: 'remember 7' });
    process.host.onConversationId(conversation);
    process.finishTurn();
    await reach(id, 'idle');
    await call('POST', `/api/sessions/${id}/stop`);
    process.exit(0);
    await reach(id, 'ended');
    const resumed = await call<{ id: string }>('POST', `/api/sessions/${id}/resume`, {
      prompt: 'what was it?',
    });
    assert.equal(resumed.status, 201, resumed.text);
    assert.notEqual(resumed.body.id, id);
    const next = agent.started.at(-1)!;
    assert.notEqual(next, process);
    assert.equal(next.launch.resumeId, conversation);
    next.greet();
    await reach(resumed.body.id, 'working');
    assert.deepEqual(next.sent, ['what was it?']);
  });
});
