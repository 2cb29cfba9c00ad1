import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CODEX_DEMO_SUBSCRIPTION_ID } from '../subscriptions/subscription-service.js';
import type { TestDaemon } from '../testing/harness.js';
import { SessionDriver } from '../testing/session-driver.js';
import { startEscapeDaemon, type EscapeFixture } from './escape-fixture.js';

const secret = (name: string): string => `${name}-${randomBytes(6).toString('hex')}`;

/** Sends a prompt (the launch's or a later one), allows its command once, waits for the answer. */
async function allowedTurn(s: SessionDriver, turn: number, prompt?: string): Promise<string> {
  if (prompt) await s.daemon.call('POST', `/api/sessions/${s.id}/messages`, { text: prompt });
  await s.decide((await s.pendingPermission()).id, { decision: 'allow' });
  await s.waitFor(`turn ${turn} completed`, async () => {
    const done = (await s.events()).filter(
      (e) => (e.data as Record<string, unknown>)['method'] === 'turn/completed',
    );
    return done.length >= turn;
  });
  return JSON.stringify(await s.events());
}

/**
 * The app server needs the subscription's CODEX_HOME (its sign-in, its threads); the commands it
 * runs must not see it, nor a protected file made after the session started.
 */
describe(
  'Codex commands: no CODEX_HOME, protected names found at each command',
  { timeout: 180_000 },
  () => {
    let daemon: TestDaemon;
    let fixture: EscapeFixture;
    let codexHome: string;
    const auth = secret('AUTH');
    const thread = secret('OTHER-THREAD');
    before(async () => {
      ({ daemon, fixture } = await startEscapeDaemon());
      codexHome = join(daemon.home, 'subscriptions', CODEX_DEMO_SUBSCRIPTION_ID);
      writeFileSync(join(codexHome, 'auth.json'), JSON.stringify({ OPENAI_API_KEY: auth }));
      const day = join(codexHome, 'sessions', '2026', '01', '02');
      mkdirSync(day, { recursive: true });
      writeFileSync(
        join(day, 'rollout-2026-01-02T03-04-05-0199aaaa-bbbb-7ccc-8ddd-eeeeffff0000.jsonl'),
        `${JSON.stringify({ type: 'event_msg', payload: { type: 'user_message', message: thread } })}\n`,
      );
      const home = JSON.stringify(codexHome);
      writeFileSync(
        join(fixture.cwd, 'codex-home.sh'),
        [
          `cat ${home}/auth.json "$CODEX_HOME/auth.json"`,
          `grep -rh . ${home}/sessions`,
          // The app server's own view, through /proc.
          `for p in /proc/[0-9]*; do cat "$p/root"${home}/auth.json; done`,
          '/usr/bin/bash -c "cat $CODEX_HOME/auth.json"',
          // Undoing the jail's mounts needs capabilities a command never has (as root too).
          `umount -l ${home}; cat ${home}/auth.json`,
          'grep CapEff /proc/self/status',
          'echo made > inside.txt',
          'echo done',
        ].join('\n') + '\n',
      );
      writeFileSync(join(fixture.cwd, 'show-late.sh'), 'cat late.pem; echo done\n');
    });
    after(async () => {
      await daemon.close();
    });

    it('an allowed build script reads neither auth.json nor another thread; the turn goes on', async () => {
      const s = await SessionDriver.launch(daemon, {
        subscription_id: CODEX_DEMO_SUBSCRIPTION_ID,
        model: 'gpt-5.5',
        cwd: fixture.cwd,
        prompt: 'demo:bash sh ./codex-home.sh',
      });
      const recorded = await allowedTurn(s, 1);
      assert.ok(!recorded.includes(auth), 'auth.json leaked');
      assert.ok(!recorded.includes(thread), "another thread's rollout leaked");
      assert.match(recorded, /done/, 'the script ran to its end');
      assert.match(
        recorded,
        /CapEff:(?:\\+t|\s)+0{16}/,
        'a command holds no capability, as root too',
      );
      assert.match(recorded, /Command result: /, 'the output went back to the model');
    });

    it('a key file made after the session started is masked for the next command', async () => {
      const s = await SessionDriver.launch(daemon, {
        subscription_id: CODEX_DEMO_SUBSCRIPTION_ID,
        model: 'gpt-5.5',
        cwd: fixture.cwd,
        prompt: 'demo:bash echo first',
      });
      await allowedTurn(s, 1);
      const late = secret('LATE-ENV');
      writeFileSync(join(fixture.cwd, 'late.pem'), late);
      const recorded = await allowedTurn(s, 2, 'demo:bash sh ./show-late.sh');
      assert.match(recorded, /done/);
      assert.ok(!recorded.includes(late), 'the late key file leaked');
    });
  },
);
