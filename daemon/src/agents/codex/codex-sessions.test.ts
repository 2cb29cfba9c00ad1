import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { PermissionRequest, Session } from '../../../../contract/api.js';
import type { QuotasAnswer } from '../../../../contract/usage.js';
import { findProcessesByEnv } from '../../processes/process-groups.js';
import { startTestDaemon, waitFor, type TestDaemon } from '../../testing/harness.js';
import { SessionDriver } from '../../testing/session-driver.js';
import { escapees, escapingCommand, ESCAPES, newMarker } from '../../testing/escapes.js';
import { SESSION_TAG_VAR } from '../session-tag.js';
import { CODEX_DEMO_SUBSCRIPTION_ID } from '../../subscriptions/subscription-service.js';
import { workdir } from '../../testing/fixtures.js';

type Line = Record<string, any>;

/** The JSON-RPC messages Codex sent, in order (notifications and server requests). */
async function codexMessages(s: SessionDriver, method: string): Promise<Line[]> {
  return (await s.events())
    .filter((e) => e.source === 'agent')
    .map((e) => e.data as Line)
    .filter((m) => m['method'] === method);
}

async function waitTurns(s: SessionDriver, count: number): Promise<Line[]> {
  return s.waitFor(`${count} turn/completed`, async () => {
    const done = await codexMessages(s, 'turn/completed');
    return done.length >= count ? done : undefined;
  });
}

async function agentTexts(s: SessionDriver): Promise<string[]> {
  return (await codexMessages(s, 'item/completed'))
    .map((m) => m['params']['item'])
    .filter((item) => item['type'] === 'agentMessage')
    .map((item) => String(item['text']));
}

function launch(daemon: TestDaemon, body: Record<string, unknown>): Promise<SessionDriver> {
  return SessionDriver.launch(daemon, {
    subscription_id: CODEX_DEMO_SUBSCRIPTION_ID,
    model: 'gpt-5.5',
    ...body,
  });
}

// These tests drive the real pinned Codex (codex app-server) against the scripted Responses API.
describe('sessions over the real Codex', { timeout: 240_000 }, () => {
  let daemon: TestDaemon;

  before(async () => {
    daemon = await startTestDaemon();
  });
  after(async () => {
    await daemon.close();
  });

  it('lists the built-in Codex demo subscription with its agent', async () => {
    const list = (
      await daemon.call<{ items: { id: string; agent: string }[] }>('GET', '/api/subscriptions')
    ).body.items;
    assert.deepEqual(
      list.map((s) => [s.id, s.agent]),
      [
        ['demo', 'claude'],
        [CODEX_DEMO_SUBSCRIPTION_ID, 'codex'],
      ],
    );
  });

  it('a text turn: verbatim JSON-RPC events, the thread id, usage and quota readings', async () => {
    const s = await launch(daemon, { cwd: workdir(), prompt: 'hello codex' });
    const [done] = await waitTurns(s, 1);
    assert.equal(done!['params']['turn']['status'], 'completed');
    assert.deepEqual(await agentTexts(s), ['Demo model here. You said: hello codex']);
    const idle = await s.waitState('idle');
    assert.equal(idle.agent, 'codex');
    assert.equal(idle.turns, 1);
    assert.ok(idle.agent_session_id, 'the thread id is the agent session id');

    const hostMethods = (await s.events())
      .filter((e) => e.source === 'host')
      .map((e) => (e.data as Line)['method'] ?? 'answer');
    assert.deepEqual(hostMethods, ['initialize', 'initialized', 'thread/start', 'turn/start']);

    const turn = await waitFor('the turn row', async () => {
      const answer = await daemon.call<{ items: Line[] }>(
        'GET',
        '/api/analytics/turns?agent=codex&limit=100',
      );
      return answer.body.items?.find((t) => t['session_id'] === s.id);
    });
    assert.equal(turn['agent'], 'codex');
    assert.equal(turn['input_tokens'], 60, 'input without the cached part');
    assert.equal(turn['cache_read_tokens'], 40);
    assert.equal(turn['reasoning_tokens'], 3, 'reasoningOutputTokens of the one response');
    assert.equal(turn['cost_estimate_usd'], null, 'no price for this model: unknown, not zero');

    const quotas = (await daemon.call<QuotasAnswer>('GET', '/api/quotas')).body;
    const codex = quotas.items.find((q) => q.subscription_id === CODEX_DEMO_SUBSCRIPTION_ID)!;
    const fiveHour = codex.windows.find((w) => w.window === 'five_hour')!;
    assert.equal(fiveHour.utilization, 13, 'x-codex-primary-used-percent 12.5, rounded by Codex');
    assert.equal(fiveHour.source, 'stream');
    assert.equal(codex.windows.find((w) => w.window === 'seven_day')!.utilization, 3);
  });

  it('a command runs only once allowed; a declined one never runs', async () => {
    const cwd = workdir();
    const s = await launch(daemon, { cwd, prompt: 'demo:bash touch allowed.txt' });
    const permission = await s.pendingPermission();
    assert.equal(permission.tool_name, 'Bash');
    assert.equal(permission.input['command'], 'touch allowed.txt');
    assert.equal((await s.session()).state, 'waiting');
    assert.equal(existsSync(join(cwd, 'allowed.txt')), false, 'nothing runs before the answer');
    await s.decide(permission.id, { decision: 'allow' });
    await waitTurns(s, 1);
    assert.ok(existsSync(join(cwd, 'allowed.txt')));

    const d = await launch(daemon, { cwd, prompt: 'demo:bash touch declined.txt' });
    await d.decide((await d.pendingPermission()).id, { decision: 'deny' });
    await waitTurns(d, 1);
    assert.equal(existsSync(join(cwd, 'declined.txt')), false);
    const answers = (await d.events())
      .filter((e) => e.source === 'host')
      .map((e) => e.data as Line)
      .filter((l) => l['result']?.['decision']);
    assert.deepEqual(
      answers.map((l) => l['result']['decision']),
      ['decline'],
    );
  });

  it("a question (request_user_input) is asked as Claude's and its answer reaches the model", async () => {
    const s = await launch(daemon, { cwd: workdir(), prompt: 'demo:ask' });
    const question = await s.pendingPermission();
    assert.equal(question.tool_name, 'AskUserQuestion');
    const [asked] = question.input['questions'] as Line[];
    assert.equal(asked!['question'], 'Which color?');
    assert.deepEqual(
      (asked!['options'] as Line[]).map((o) => o['label']),
      ['Red', 'Blue'],
    );
    await s.decide(question.id, { decision: 'allow', answers: { 'Which color?': 'Blue' } });
    await waitTurns(s, 1);
    const texts = await agentTexts(s);
    assert.match(texts.at(-1)!, /^You answered: .*Blue/);
  });

  it('a file change is asked with its real path and written once allowed', async () => {
    const cwd = workdir();
    const s = await launch(daemon, { cwd, prompt: 'demo:write made.txt hello from codex' });
    const permission = await s.pendingPermission();
    assert.equal(permission.tool_name, 'Write');
    assert.equal(permission.input['file_path'], join(cwd, 'made.txt'));
    assert.equal(existsSync(join(cwd, 'made.txt')), false);
    await s.decide(permission.id, { decision: 'allow' });
    await waitTurns(s, 1);
    assert.equal(readFileSync(join(cwd, 'made.txt'), 'utf8'), 'hello from codex\n');
  });

  it('a rule refuses without asking: a forced rm, and a write to a secrets file', async () => {
    const cwd = workdir();
    const s = await launch(daemon, { cwd, prompt: 'demo:bash rm -rf build' });
    await waitTurns(s, 1);
    const w = await launch(daemon, { cwd, prompt: 'demo:write .env SECRET=1' });
    await waitTurns(w, 1);
    assert.equal(existsSync(join(cwd, '.env')), false);
    for (const session of [s, w]) {
      const asked = (
        await daemon.call<{ items: PermissionRequest[] }>(
          'GET',
          `/api/permissions?session=${session.id}`,
        )
      ).body.items;
      assert.equal(asked.length, 0, 'nobody was asked');
      const auto = (await session.events())
        .map((e) => e.data as Line)
        .filter((l) => l['subtype'] === 'permission_auto');
      assert.equal(auto[0]!['decision'], 'deny');
    }
  });

  it('read_only mode refuses a command that writes, without asking', async () => {
    const cwd = workdir();
    const s = await launch(daemon, {
      cwd,
      prompt: 'demo:bash touch nope.txt',
      permission_mode: 'read_only',
    });
    await waitTurns(s, 1);
    assert.equal(existsSync(join(cwd, 'nope.txt')), false);
    const auto = (await s.events())
      .map((e) => e.data as Line)
      .filter((l) => l['subtype'] === 'permission_auto');
    assert.equal(auto[0]!['decision'], 'deny');
  });

  it('interrupt ends the running turn; stop leaves no process behind', async () => {
    const s = await launch(daemon, { cwd: workdir(), prompt: 'demo:slow 60000' });
    await s.waitFor('the agent message to start', async () =>
      (await codexMessages(s, 'item/started')).some(
        (m) => m['params']['item']['type'] === 'agentMessage',
      ),
    );
    const answer = await daemon.call<Session>('POST', `/api/sessions/${s.id}/interrupt`);
    assert.equal(answer.status, 200);
    const [done] = await waitTurns(s, 1);
    assert.equal(done!['params']['turn']['status'], 'interrupted');
    await s.waitState('idle');

    const pid = (await s.session()).pid;
    assert.ok(pid);
    await daemon.call('POST', `/api/sessions/${s.id}/stop`);
    const ended = await s.waitState('ended');
    assert.equal(ended.end_reason, 'stopped');
    assert.deepEqual(findProcessesByEnv(SESSION_TAG_VAR, s.id), [], 'no survivor');
  });

  it('stop ends everything a command started, whatever it did to its group or environment', async () => {
    const marker = newMarker();
    // The command stays in the foreground, so the stop lands while it runs. Codex's own command
    // sandbox also ends what a command leaves (this passes without the cage too); the Claude
    // escapes test (sessions/session-containment.test.ts) is the one only the cage passes.
    const prompt = `demo:bash ${escapingCommand(marker)}; sleep 300`;
    const s = await launch(daemon, { cwd: workdir(), prompt });
    await s.decide((await s.pendingPermission()).id, { decision: 'allow' });
    await waitFor('every escape running', () => escapees(marker).length === ESCAPES, 30_000);
    await daemon.call('POST', `/api/sessions/${s.id}/stop`);
    assert.equal((await s.waitState('ended')).end_reason, 'stopped');
    assert.deepEqual(escapees(marker), [], 'processes outlived a session reported ended');
  });

  it('steer now adds the text to the running turn (turn/steer)', async () => {
    const s = await launch(daemon, { cwd: workdir(), prompt: 'demo:slow 60000' });
    await s.waitFor('the agent message to start', async () =>
      (await codexMessages(s, 'item/started')).some(
        (m) => m['params']['item']['type'] === 'agentMessage',
      ),
    );
    const answer = await daemon.call('POST', `/api/sessions/${s.id}/steer`, {
      text: 'and this too',
    });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.delivery, 'steered');
    const [done] = await waitTurns(s, 1);
    assert.equal(done!['params']['turn']['status'], 'completed');
    assert.ok((await agentTexts(s)).includes('Demo model here. You said: and this too'));
    const hostMethods = (await s.events())
      .filter((e) => e.source === 'host')
      .map((e) => (e.data as Line)['method']);
    assert.equal(hostMethods.filter((m) => m === 'turn/start').length, 1, 'one turn only');
    assert.equal(hostMethods.filter((m) => m === 'turn/steer').length, 1);
  });
});
