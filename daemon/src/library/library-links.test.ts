import assert from 'node:assert/strict';
import {
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestDaemon, type TestDaemon } from '../testing/harness.js';

const folder = (): string => mkdtempSync(join(tmpdir(), 'relais-library-links-'));

describe('library placement and import never follow a planted link', () => {
  let daemon: TestDaemon;
  let configDir: string;
  before(async () => {
    daemon = await startTestDaemon({ config: { historyWatch: false } });
    configDir = (await daemon.call('GET', '/api/subscriptions/demo')).body.config_dir;
  });
  after(async () => {
    await daemon.close();
  });

  const create = (body: Record<string, unknown>) =>
    daemon.call('POST', '/api/library', { subscription_id: 'demo', ...body });
  const remove = (id: string) => daemon.call('DELETE', `/api/library/${id}`);

  it('a link planted at the temporary name is not written through', async () => {
    const commands = join(configDir, 'commands');
    mkdirSync(commands, { recursive: true });
    const victim = join(folder(), 'victim');
    writeFileSync(victim, 'the victim');
    // The name today's placement writes first, and a few other guesses.
    for (const name of [`tmp-cmd.md.${process.pid}.tmp`, 'tmp-cmd.md.tmp', 'tmp-cmd.md~'])
      symlinkSync(victim, join(commands, name));
    const made = await create({ kind: 'command', name: 'tmp-cmd', content: 'placed by relais' });
    assert.equal(made.status, 201, made.text);
    assert.equal(readFileSync(victim, 'utf8'), 'the victim');
    const placed = join(commands, 'tmp-cmd.md');
    assert.ok(lstatSync(placed).isFile());
    assert.equal(readFileSync(placed, 'utf8'), 'placed by relais');
    assert.deepEqual(
      readdirSync(commands).filter((n) => /^tmp-cmd\.md\.[0-9a-f]{16}\.tmp$/.test(n)),
      [],
      'no temporary file is left behind',
    );
    await remove(made.body.id);
    assert.equal(readFileSync(victim, 'utf8'), 'the victim');
  });

  it('a link at the destination, or a linked folder on the way, is never written through', async () => {
    const elsewhere = folder();
    const victim = join(elsewhere, 'dest.md');
    writeFileSync(victim, 'the victim');
    symlinkSync(victim, join(configDir, 'commands', 'dest.md'));
    const dest = await create({ kind: 'command', name: 'dest', content: 'relais' });
    assert.equal(dest.status, 201, dest.text);
    assert.equal(readFileSync(victim, 'utf8'), 'the victim');
    const skillsAway = folder();
    symlinkSync(skillsAway, join(configDir, 'skills'));
    const skill = await create({ kind: 'skill', name: 'away', content: 'skill text' });
    assert.equal(skill.status, 201, skill.text);
    assert.deepEqual(readdirSync(skillsAway), []);
    await remove(dest.body.id);
    await remove(skill.body.id);
    assert.equal(readFileSync(victim, 'utf8'), 'the victim');
    assert.deepEqual(readdirSync(skillsAway), []);
    rmSync(join(configDir, 'skills'));
  });

  it("the record of placed files is Relais' own: an edited .relais-library.json deletes nothing", async () => {
    writeFileSync(join(configDir, 'settings.json'), '{"mine": true}');
    writeFileSync(join(configDir, 'commands', 'keep.md'), 'the person wrote this');
    writeFileSync(
      join(configDir, '.relais-library.json'),
      JSON.stringify(['settings.json', 'commands/keep.md']),
    );
    const made = await create({ kind: 'command', name: 'passing', content: 'x' });
    assert.equal(made.status, 201, made.text);
    await remove(made.body.id);
    assert.equal(readFileSync(join(configDir, 'settings.json'), 'utf8'), '{"mine": true}');
    assert.equal(
      readFileSync(join(configDir, 'commands', 'keep.md'), 'utf8'),
      'the person wrote this',
    );
  });

  it('a placed file the person changed since is left in place', async () => {
    const made = await create({ kind: 'command', name: 'edited', content: 'as placed' });
    const placed = join(configDir, 'commands', 'edited.md');
    assert.equal(readFileSync(placed, 'utf8'), 'as placed');
    writeFileSync(placed, 'the person changed it');
    // Changing the item does not overwrite the person's version either.
    await daemon.call('PATCH', `/api/library/${made.body.id}`, { content: 'new text' });
    assert.equal(readFileSync(placed, 'utf8'), 'the person changed it');
    await remove(made.body.id);
    assert.equal(readFileSync(placed, 'utf8'), 'the person changed it');

    const again = await create({ kind: 'command', name: 'relinked', content: 'as placed' });
    const relinked = join(configDir, 'commands', 'relinked.md');
    const victim = join(folder(), 'victim.md');
    writeFileSync(victim, 'as placed');
    rmSync(relinked);
    symlinkSync(victim, relinked);
    await remove(again.body.id);
    assert.equal(readFileSync(victim, 'utf8'), 'as placed');
    assert.ok(lstatSync(relinked).isSymbolicLink(), 'a link is not Relais’ file: left alone');
  });

  it('import_path follows no link: a key, a private key behind SKILL.md, a linked folder, a hard link', async () => {
    const repo = folder();
    symlinkSync(join(daemon.home, 'api-key'), join(repo, 'key.md'));
    const privateKey = join(folder(), 'id_ed25519');
    writeFileSync(privateKey, '-----BEGIN OPENSSH PRIVATE KEY-----\nsecret\n');
    mkdirSync(join(repo, 'stolen'));
    symlinkSync(privateKey, join(repo, 'stolen', 'SKILL.md'));
    const realSkill = join(folder(), 'real-skill');
    mkdirSync(realSkill);
    writeFileSync(join(realSkill, 'SKILL.md'), 'fine text');
    symlinkSync(realSkill, join(repo, 'linked-skill'));
    linkSync(join(daemon.home, 'api-key'), join(repo, 'hard.md'));
    const refused = [
      ['command', join(repo, 'key.md')],
      ['skill', join(repo, 'stolen')],
      ['skill', join(repo, 'linked-skill')],
      ['command', join(repo, 'hard.md')],
    ] as const;
    for (const [kind, path] of refused) {
      const answer = await create({ kind, import_path: path });
      assert.equal(answer.status, 400, `${path}: ${answer.text}`);
      assert.equal(answer.body.error_code, 'invalid_import');
      assert.match(answer.body.message, /link/);
    }
    const key = readFileSync(join(daemon.home, 'api-key'), 'utf8').trim();
    const items = (await daemon.call('GET', '/api/library')).body.items as { content: string }[];
    assert.ok(items.every((i) => !i.content.includes(key) && !i.content.includes('PRIVATE KEY')));
    // A plain folder still imports.
    const plain = join(folder(), 'plain-skill');
    mkdirSync(plain);
    writeFileSync(join(plain, 'SKILL.md'), 'plain text');
    const ok = await create({ kind: 'skill', import_path: plain });
    assert.equal(ok.status, 201, ok.text);
    await remove(ok.body.id);
    assert.equal(existsSync(join(configDir, 'skills', 'plain-skill')), false);
  });
});
