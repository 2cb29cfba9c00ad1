import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { PermissionRequest, Session } from '../../../contract/api.js';
import { CODEX_DEMO_SUBSCRIPTION_ID } from '../subscriptions/subscription-service.js';
import { startTestDaemon, type TestDaemon } from '../testing/harness.js';
import { SessionDriver } from '../testing/session-driver.js';
import { realisticProject, SESSION } from './realistic-session.js';

interface Count {
  /** Prompts that reached the Inbox, by tool (`Bash`, `Network`). */
  prompts: Record<string, number>;
  /** The commands whose prompt was a Bash one. */
  asked: string[];
}

const AGENTS = {
  claude: { subscription_id: 'demo', model: 'demo-sonnet' },
  codex: { subscription_id: CODEX_DEMO_SUBSCRIPTION_ID, model: 'gpt-5.5' },
};

/**
 * The realistic session's 100 commands, one turn each, with the live agent against the scripted
 * model; every Inbox prompt answered as a person would: a command allowed once (a push refused),
 * a new host refused (the session is offline).
 */
async function promptsOf(
  daemon: TestDaemon,
  agent: keyof typeof AGENTS,
  confined: boolean,
): Promise<Count> {
  const count: Count = { prompts: {}, asked: [] };
  const s = await SessionDriver.launch(daemon, {
    ...AGENTS[agent],
    cwd: realisticProject(),
    confined_without_asking: confined,
  });
  for (const [index, command] of SESSION.entries()) {
    await daemon.call('POST', `/api/sessions/${s.id}/messages`, { text: `demo:bash ${command}` });
    await s.waitFor(`turn ${index + 1} (${command})`, async () => {
      const session = (await daemon.call<Session>('GET', `/api/sessions/${s.id}`)).body;
      if (session.pending_permissions > 0) await answer(s, count, command);
      return session.turns > index && session.state === 'idle' && session.queue_length === 0;
    });
  }
  await daemon.call('POST', `/api/sessions/${s.id}/stop`);
  return count;
}

async function answer(s: SessionDriver, count: Count, command: string): Promise<void> {
  const pending = (
    await s.daemon.call<{ items: PermissionRequest[] }>(
      'GET',
      `/api/permissions?state=pending&session=${s.id}`,
    )
  ).body.items;
  for (const request of pending) {
    count.prompts[request.tool_name] = (count.prompts[request.tool_name] ?? 0) + 1;
    if (request.tool_name === 'Bash') count.asked.push(command);
    const allow = request.tool_name === 'Bash' && !command.startsWith('git push');
    await s.daemon
      .call('POST', `/api/permissions/${request.id}/decision`, {
        decision: allow ? 'allow' : 'deny',
      })
      .catch(() => undefined);
  }
}

// Both agents at once: one after the other, Codex's 200 turns took 86 s after Claude's 375 s
// (load 13 on 2 cores); beside them they hide under Claude's.
const BOTH_AGENTS_AT_ONCE = { timeout: 1_200_000, concurrency: 2 };

describe('prompts per 100 commands, with the live agents', BOTH_AGENTS_AT_ONCE, () => {
  let daemon: TestDaemon;
  before(async () => {
    daemon = await startTestDaemon();
  });
  after(async () => {
    await daemon.close();
  });

  for (const agent of ['claude', 'codex'] as const)
    it(`${agent}: "run confined commands without asking" leaves the rules' prompts only`, async () => {
      // Side by side: the two sessions wait on the scripted model more than they compute.
      const [plain, confined] = await Promise.all([
        promptsOf(daemon, agent, false),
        promptsOf(daemon, agent, true),
      ]);
      console.log(
        `${agent}: prompts per 100 commands without the choice ${JSON.stringify(plain.prompts)}, with it ${JSON.stringify(confined.prompts)} (${confined.asked.join('; ')})`,
      );
      assert.ok((plain.prompts['Bash'] ?? 0) > 50, 'without the choice most commands ask');
      assert.deepEqual(confined.asked, ['git push origin feature/parser']);
    });
});
