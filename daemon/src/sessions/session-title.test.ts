import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TITLE_MAX, type Session } from '../../../contract/api.js';
import { startTestDaemon, type TestDaemon } from '../testing/harness.js';
import { SessionDriver } from '../testing/session-driver.js';
import { titleFromPrompt } from './session-title.js';
import { workdir } from '../testing/fixtures.js';

describe('a session title from its first prompt', () => {
  it('is the prompt on one line, without control characters', () => {
    assert.equal(titleFromPrompt('  fix the\n\tlogin\u0000 bug\u202e  '), 'fix the login bug');
    assert.equal(titleFromPrompt(undefined), null);
    assert.equal(titleFromPrompt(' \n\u0007 '), null);
  });

  it('is cut at a word, with an ellipsis, within the maximum', () => {
    const title = titleFromPrompt('word '.repeat(200))!;
    assert.ok(title.length <= TITLE_MAX, `${title.length} characters`);
    assert.ok(title.endsWith('word…'));
    assert.equal(titleFromPrompt('x'.repeat(5000))!.length, TITLE_MAX);
  });
});

describe('PATCH /api/sessions/:id names a session', { timeout: 180_000 }, () => {
  let daemon: TestDaemon;

  before(async () => {
    daemon = await startTestDaemon();
  });
  after(async () => {
    await daemon.close();
  });

  it('launch titles the session with its prompt; a rename is kept, listed and validated', async () => {
    const s = await SessionDriver.launch(daemon, {
      cwd: workdir(),
      prompt: 'demo:echo hello\nmore',
    });
    assert.equal((await s.session()).title, 'demo:echo hello more');

    const renamed = await daemon.call<Session>('PATCH', `/api/sessions/${s.id}`, {
      title: '  Release notes  ',
    });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.title, 'Release notes');
    const listed = await daemon.call<{ items: Session[] }>('GET', '/api/sessions');
    assert.equal(listed.body.items.find((item) => item.id === s.id)?.title, 'Release notes');

    for (const title of [
      '',
      '   ',
      'a\nb',
      'tab\there',
      'bell\u0007',
      'rtl\u202eevil',
      'x'.repeat(TITLE_MAX + 1),
      42,
    ]) {
      const refused = await daemon.call('PATCH', `/api/sessions/${s.id}`, { title });
      assert.equal(refused.status, 400, JSON.stringify(title));
      assert.equal(refused.body.error_code, 'invalid_request');
    }
    const extra = await daemon.call('PATCH', `/api/sessions/${s.id}`, {
      title: 'ok',
      state: 'ended',
    });
    assert.equal(extra.status, 400);
    assert.equal((await s.session()).title, 'Release notes', 'a refused rename changes nothing');

    const cleared = await daemon.call<Session>('PATCH', `/api/sessions/${s.id}`, { title: null });
    assert.equal(cleared.body.title, null);

    const missing = await daemon.call('PATCH', '/api/sessions/ses_nope', { title: 'x' });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error_code, 'not_found');
  });

  it('a session launched without a prompt is titled by its first message', async () => {
    const s = await SessionDriver.launch(daemon, { cwd: workdir() });
    assert.equal((await s.session()).title, null);
    await s.waitState('idle');
    const sent = await daemon.call('POST', `/api/sessions/${s.id}/messages`, {
      text: 'demo:echo first message',
    });
    assert.ok(sent.status < 300, sent.text);
    assert.equal((await s.session()).title, 'demo:echo first message');
  });
});
