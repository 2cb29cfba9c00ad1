import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { LibraryItem } from '../../../contract/library.js';
import { startTestDaemon, type TestDaemon } from '../testing/harness.js';
import { SessionDriver } from '../testing/session-driver.js';
import { workdir } from '../testing/fixtures.js';

describe('library and instructions, with the real Claude Code', { timeout: 240_000 }, () => {
  let daemon: TestDaemon;
  let configDir: string;
  before(async () => {
    daemon = await startTestDaemon();
    configDir = (await daemon.call('GET', '/api/subscriptions/demo')).body.config_dir;
  });
  after(async () => {
    await daemon.close();
  });

  const create = (body: Record<string, unknown>) => daemon.call('POST', '/api/library', body);

  it('a command is placed where Claude reads it, runs as a slash command, and goes when disabled', async () => {
    const made = await create({
      kind: 'command',
      name: 'greet',
      subscription_id: null,
      content: 'Greet the team with the word pineapple.',
    });
    assert.equal(made.status, 201, made.text);
    const file = join(configDir, 'commands', 'greet.md');
    assert.equal(readFileSync(file, 'utf8'), 'Greet the team with the word pineapple.');

    const s = await SessionDriver.launch(daemon, { cwd: workdir(), prompt: '/greet' });
    await s.waitResults(1);
    const [init] = await s.agentLines('system');
    assert.ok((init!['slash_commands'] as string[]).includes('greet'));
    const texts = await s.assistantTexts();
    assert.match(texts[texts.length - 1]!, /pineapple/);

    const off = await daemon.call('PATCH', `/api/library/${made.body.id}`, { enabled: false });
    assert.equal(off.status, 200);
    assert.equal(existsSync(file), false);
    await daemon.call('PATCH', `/api/library/${made.body.id}`, { enabled: true });
    assert.equal(existsSync(file), true);
    assert.equal((await daemon.call('DELETE', `/api/library/${made.body.id}`)).status, 204);
    assert.equal(existsSync(file), false);
    assert.equal((await daemon.call('GET', `/api/library/${made.body.id}`)).status, 404);
  });

  it('a skill imported from a folder lands as skills/<name>/SKILL.md', async () => {
    const folder = join(workdir(), 'release-notes');
    mkdirSync(folder);
    writeFileSync(
      join(folder, 'SKILL.md'),
      '---\nname: release-notes\ndescription: Writes notes.\n---\nWrite notes.',
    );
    const made = await create({ kind: 'skill', import_path: folder, subscription_id: 'demo' });
    assert.equal(made.status, 201, made.text);
    assert.equal(made.body.name, 'release-notes');
    assert.match(
      readFileSync(join(configDir, 'skills', 'release-notes', 'SKILL.md'), 'utf8'),
      /Write notes/,
    );
    const listed = (await daemon.call('GET', '/api/library?subscription_id=demo&kind=skill')).body;
    assert.deepEqual(
      listed.items.map((i: LibraryItem) => i.name),
      ['release-notes'],
    );
    await daemon.call('DELETE', `/api/library/${made.body.id}`);
    assert.equal(existsSync(join(configDir, 'skills', 'release-notes')), false);
  });

  it('refuses names that could leave the folder, and odd imports', async () => {
    for (const name of [
      '../evil',
      '..',
      '.hidden',
      'a/b',
      'a%2Fb',
      'a\\b',
      'a\u0000b',
      'café',
      'ａ',
      '',
      'x'.repeat(65),
    ]) {
      const answer = await create({ kind: 'command', name, content: 'x' });
      assert.equal(answer.status, 400, `${JSON.stringify(name)}: ${answer.text}`);
      assert.equal(answer.body.error_code, 'invalid_request');
    }
    const bad = [
      ['/etc/passwd', /Markdown/],
      ['relative/x.md', /absolute/],
      [join(daemon.home, 'x.md'), /data folder/],
      ['/nonexistent/x.md', /no such file/],
    ] as const;
    for (const [path, reason] of bad) {
      const answer = await create({ kind: 'command', import_path: path });
      assert.equal(answer.status, 400, answer.text);
      assert.match(answer.body.message, reason);
    }
    assert.equal(
      (await create({ kind: 'command', name: 'x', content: 'a', subscription_id: 'nope' })).status,
      400,
    );
    const once = await create({ kind: 'command', name: 'twice', content: 'a' });
    assert.equal((await create({ kind: 'command', name: 'twice', content: 'b' })).status, 409);
    await daemon.call('DELETE', `/api/library/${once.body.id}`);
  });

  it('never writes through a link, nor over a file it did not place', async () => {
    const elsewhere = workdir();
    const commands = join(configDir, 'commands');
    mkdirSync(commands, { recursive: true });
    writeFileSync(join(commands, 'mine.md'), 'the person wrote this');
    symlinkSync(elsewhere, join(commands, 'linked'));
    const mine = await create({ kind: 'command', name: 'mine', content: 'relais' });
    assert.equal(readFileSync(join(commands, 'mine.md'), 'utf8'), 'the person wrote this');
    await daemon.call('DELETE', `/api/library/${mine.body.id}`);
    assert.equal(readFileSync(join(commands, 'mine.md'), 'utf8'), 'the person wrote this');
  });

  it('instructions reach the system prompt of new sessions only, and the start event tells them', async () => {
    const put = await daemon.call('PUT', '/api/instructions', {
      scope: 'common',
      text: 'RELAIS-MARK-ONE: answer briefly.',
    });
    assert.equal(put.status, 200, put.text);
    await daemon.call('PUT', '/api/instructions', { scope: 'demo', text: 'RELAIS-MARK-DEMO' });
    const s = await SessionDriver.launch(daemon, {
      cwd: workdir(),
      prompt: 'demo:system RELAIS-MARK',
    });
    await s.waitResults(1);
    let texts = await s.assistantTexts();
    assert.match(texts[texts.length - 1]!, /System prompt line: RELAIS-MARK-ONE: answer briefly\./);
    const created = (await s.events()).find(
      (e) => (e.data as Record<string, unknown>)['subtype'] === 'session_created',
    )!.data as Record<string, any>;
    assert.deepEqual(created['instructions'], {
      common: 'RELAIS-MARK-ONE: answer briefly.',
      subscription: 'RELAIS-MARK-DEMO',
    });

    await daemon.call('PUT', '/api/instructions', { scope: 'common', text: 'RELAIS-MARK-TWO' });
    await daemon.call('POST', `/api/sessions/${s.id}/messages`, {
      text: 'demo:system RELAIS-MARK-T',
    });
    await s.waitResults(2);
    texts = await s.assistantTexts();
    assert.match(texts[texts.length - 1]!, /No system prompt line holds RELAIS-MARK-T/);
    const list = (await daemon.call('GET', '/api/instructions')).body.items;
    assert.deepEqual(
      list.map((i: { scope: string; text: string }) => [i.scope, i.text]),
      [
        ['common', 'RELAIS-MARK-TWO'],
        ['demo', 'RELAIS-MARK-DEMO'],
      ],
    );
    const wrong = await daemon.call('PUT', '/api/instructions', { scope: 'nope', text: 'x' });
    assert.equal(wrong.status, 400);
  });
});
