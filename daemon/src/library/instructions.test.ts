import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestDaemon, type TestDaemon } from '../testing/harness.js';
import { SessionDriver } from '../testing/session-driver.js';
import { workdir } from '../testing/fixtures.js';

describe('instructions that an agent cannot be given', { timeout: 120_000 }, () => {
  let daemon: TestDaemon;
  before(async () => {
    daemon = await startTestDaemon();
  });
  after(async () => {
    await daemon.close();
  });

  it('PUT refuses a NUL and the other control characters, and keeps tab and line breaks', async () => {
    for (const bad of [
      'a\u0000b',
      '\u0001',
      'esc \u001b[31m',
      'del \u007f',
      'x\u000bx',
      '\u0000',
    ]) {
      const answer = await daemon.call('PUT', '/api/instructions', { scope: 'common', text: bad });
      assert.equal(answer.status, 400, JSON.stringify(bad));
      assert.equal(answer.body.error_code, 'invalid_request');
      assert.match(answer.body.message, /control character U\+00[0-7][0-9A-F]/);
    }
    const fine = await daemon.call('PUT', '/api/instructions', {
      scope: 'demo',
      text: 'one\ttab\r\nline — ünïcode ✓',
    });
    assert.equal(fine.status, 200, fine.text);
    const listed = (await daemon.call('GET', '/api/instructions')).body.items;
    assert.deepEqual(
      listed.map((i: { scope: string }) => i.scope),
      ['demo'],
    );
  });

  it('a stored value with a NUL (from before the check) is left out and said so; launches work', async () => {
    daemon.relais.db
      .prepare(
        "INSERT INTO instructions (scope, text, updated_at) VALUES ('common', ?, '2026-01-01T00:00:00.000Z') ON CONFLICT(scope) DO UPDATE SET text = excluded.text",
      )
      .run('be brief\u0000--dangerously-skip-permissions');
    daemon.relais.db
      .prepare('UPDATE instructions SET text = ? WHERE scope = ?')
      .run('字'.repeat(200_000), 'demo');
    const s = await SessionDriver.launch(daemon, {
      cwd: workdir(),
      prompt: 'still launching',
    });
    await s.waitResults(1);
    const created = (await s.events()).find(
      (e) => (e.data as Record<string, unknown>)['subtype'] === 'session_created',
    )!.data as Record<string, any>;
    assert.equal(created['instructions']['common'], null);
    assert.equal(created['instructions']['subscription'], null);
    assert.deepEqual(
      created['instructions']['skipped'].map((s: { scope: string }) => s.scope),
      ['common', 'demo'],
    );
    assert.match(created['instructions']['skipped'][0].reason, /U\+0000/);
    assert.match(created['instructions']['skipped'][1].reason, /over 20000 characters/);
  });
});
