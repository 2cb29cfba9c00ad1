import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { QUEUE_MAX, type MessageResult, type QueueEntry } from '../../../contract/api.js';
import { startTestDaemon, type TestDaemon } from '../testing/harness.js';
import { SessionDriver } from '../testing/session-driver.js';
import { workdir } from '../testing/fixtures.js';

// These tests drive the real pinned Claude Code against the scripted demo model.
describe('sessions over the real Claude Code', { timeout: 180_000 }, () => {
  let daemon: TestDaemon;

  before(async () => {
    daemon = await startTestDaemon();
  });
  after(async () => {
    await daemon.close();
  });

  it('launch → tool call → permission → allow → result paired by tool_use_id → turn result', async () => {
    const cwd = workdir();
    const s = await SessionDriver.launch(daemon, { cwd, prompt: 'demo:bash touch allowed.txt' });
    const permission = await s.pendingPermission();
    assert.equal(permission.tool_name, 'Bash');
    assert.equal(permission.input['command'], 'touch allowed.txt');
    assert.equal((await s.session()).state, 'waiting');
    assert.equal(
      existsSync(join(cwd, 'allowed.txt')),
      false,
      'nothing runs before the person answers',
    );

    await s.decide(permission.id, { decision: 'allow' });
    const [result] = await s.waitResults(1);
    assert.equal(result!['is_error'], false);
    assert.ok(existsSync(join(cwd, 'allowed.txt')));

    const toolUses = (await s.agentLines('assistant'))
      .flatMap((l) => l['message']['content'])
      .filter((b: any) => b.type === 'tool_use');
    const toolResults = (await s.agentLines('user'))
      .flatMap((l) => l['message']['content'])
      .filter((b: any) => b.type === 'tool_result');
    assert.equal(toolUses.length, 1);
    assert.equal(toolResults[0].tool_use_id, toolUses[0].id);
    assert.equal(permission.tool_use_id, toolUses[0].id);
    const idle = await s.waitState('idle');
    assert.equal(idle.turns, 1);
    assert.ok(idle.agent_session_id, 'the agent session id is recorded from system/init');
  });

  it('deny → the agent receives the reason and nothing runs', async () => {
    const cwd = workdir();
    const s = await SessionDriver.launch(daemon, { cwd, prompt: 'demo:bash touch denied.txt' });
    const permission = await s.pendingPermission();
    await s.decide(permission.id, { decision: 'deny', message: 'not on a Friday' });
    await s.waitResults(1);
    assert.equal(existsSync(join(cwd, 'denied.txt')), false);
    const texts = await s.assistantTexts();
    assert.match(texts[texts.length - 1]!, /not on a Friday/);
    const settled = (await daemon.call('GET', `/api/permissions?session=${s.id}`)).body.items[0];
    assert.equal(settled.state, 'denied');
    assert.equal(settled.decided_by, 'console');
  });

  it('AskUserQuestion is answered through the decision endpoint', async () => {
    const s = await SessionDriver.launch(daemon, { cwd: workdir(), prompt: 'demo:ask' });
    const permission = await s.pendingPermission();
    assert.equal(permission.is_question, true);
    await s.decide(permission.id, { decision: 'allow', answers: { 'Which color?': 'Blue' } });
    await s.waitResults(1);
    const texts = await s.assistantTexts();
    assert.match(texts[texts.length - 1]!, /Blue/);
  });

  it('"allow for this session" lets the same command through without asking again', async () => {
    const s = await SessionDriver.launch(daemon, {
      cwd: workdir(),
      prompt: 'demo:bash touch again.txt',
    });
    await s.decide((await s.pendingPermission()).id, { decision: 'allow', scope: 'session' });
    await s.waitResults(1);
    await s.waitState('idle');
    const sent = await daemon.call<MessageResult>('POST', `/api/sessions/${s.id}/messages`, {
      text: 'demo:bash touch again.txt',
    });
    assert.equal(sent.body.delivery, 'sent');
    await s.waitResults(2);
    const pending = (await daemon.call('GET', `/api/permissions?session=${s.id}`)).body.items;
    assert.equal(pending.length, 1, 'only the first use asked a person');
  });

  it('queues while working: the 11th is refused, the queue drains one per turn in order', async () => {
    const s = await SessionDriver.launch(daemon, { cwd: workdir(), prompt: 'demo:slow 2500' });
    await s.waitState('working');
    const texts = Array.from({ length: QUEUE_MAX }, (_, i) => `queued message ${i + 1}`);
    for (const text of texts) {
      const answer = await daemon.call<MessageResult>('POST', `/api/sessions/${s.id}/messages`, {
        text,
      });
      assert.equal(answer.status, 200);
      assert.equal(answer.body.delivery, 'queued');
    }
    const refused = await daemon.call('POST', `/api/sessions/${s.id}/messages`, {
      text: 'one too many',
    });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error_code, 'queue_full');

    // Reorder: move the last entry first, then delete the second-to-last.
    const queue = (await daemon.call<{ items: QueueEntry[] }>('GET', `/api/sessions/${s.id}/queue`))
      .body.items;
    const ids = queue.map((e) => e.id);
    const reordered = [ids[9]!, ...ids.slice(0, 9)];
    assert.equal(
      (await daemon.call('PUT', `/api/sessions/${s.id}/queue`, { ids: reordered })).status,
      200,
    );
    assert.equal(
      (await daemon.call('DELETE', `/api/sessions/${s.id}/queue/${ids[8]}`)).status,
      204,
    );
    const expected = [texts[9], ...texts.slice(0, 8)].map((t) => `Demo model here. You said: ${t}`);

    await s.waitResults(1 + expected.length);
    const replies = (await s.assistantTexts()).filter((t) => t.startsWith('Demo model here.'));
    assert.deepEqual(replies, expected);
    assert.equal((await s.waitState('idle')).queue_length, 0);
  });

  it('interrupt ends the running turn with an error result', async () => {
    const s = await SessionDriver.launch(daemon, { cwd: workdir(), prompt: 'demo:slow 20000' });
    await s.waitState('working');
    const answer = await daemon.call('POST', `/api/sessions/${s.id}/interrupt`);
    assert.equal(answer.status, 200);
    const [result] = await s.waitResults(1);
    assert.equal(result!['is_error'], true);
    await s.waitState('idle');
    const again = await daemon.call('POST', `/api/sessions/${s.id}/interrupt`);
    assert.equal(again.status, 409, 'nothing to interrupt when idle');
  });

  it('MCP servers given at launch reach the agent, and only those', async () => {
    const s = await SessionDriver.launch(daemon, {
      cwd: workdir(),
      prompt: 'hello',
      mcp_servers: {
        docs: { type: 'http', url: 'http://127.0.0.1:9/mcp', allowed_tools: ['search'] },
      },
    });
    await s.waitResults(1);
    const init = (await s.agentLines('system')).find((l) => l['subtype'] === 'init')!;
    assert.deepEqual(
      init['mcp_servers'].map((m: { name: string }) => m.name),
      ['docs'],
    );
    const bad = await daemon.call('POST', '/api/sessions', {
      subscription_id: 'demo',
      model: 'm',
      cwd: workdir(),
      mcp_servers: { 'bad name!': { command: 'x', allowed_tools: ['search'] } },
    });
    assert.equal(bad.status, 400);
  });
});
