import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { AuditEntry } from '../../../contract/permissions.js';
import { startTestDaemon, type TestDaemon } from '../testing/harness.js';
import { SessionDriver } from '../testing/session-driver.js';

const ENV_SECRET = 'ENV_SECRET_4412';
const PEM_SECRET = 'PEM_SECRET_9920';
const SSH_SECRET = 'SSH_SECRET_7731';

function write(file: string, content: string): void {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, content);
}

/**
 * The pinned Claude Code replaces Grep and Glob by grep and find through Bash unless a setting names
 * them; a project that allows them gets the tools, and its searches pass the gate like any other.
 */
function optInToSearchTools(folder: string): void {
  write(
    join(folder, '.claude', 'settings.json'),
    JSON.stringify({ permissions: { allow: ['Grep', 'Glob'] } }),
  );
}

function project(): string {
  const cwd = mkdtempSync(join(tmpdir(), 'relais-search-'));
  write(join(cwd, 'src', 'app.ts'), 'export const needle = 1;\n');
  write(join(cwd, '.env'), `needle=${ENV_SECRET}\n`);
  write(join(cwd, 'config', '.env.local'), `needle=${ENV_SECRET}\n`);
  write(join(cwd, 'keys', 'server.pem'), `needle ${PEM_SECRET}\n`);
  optInToSearchTools(cwd);
  return cwd;
}

describe('a search never reads a zero-access file (real Claude Code)', { timeout: 240_000 }, () => {
  let daemon: TestDaemon;
  let fakeHome: string;
  const realHome = process.env['HOME'];
  before(async () => {
    // The rules' ~/ is the user's home: a fake one, with a key in ~/.ssh.
    fakeHome = mkdtempSync(join(tmpdir(), 'relais-fake-home-'));
    write(join(fakeHome, '.ssh', 'id_rsa'), `needle ${SSH_SECRET}\n`);
    write(join(fakeHome, 'notes.txt'), 'a needle in the notes\n');
    optInToSearchTools(fakeHome);
    process.env['HOME'] = fakeHome;
    daemon = await startTestDaemon();
  });
  after(async () => {
    await daemon.close();
    process.env['HOME'] = realHome;
    rmSync(fakeHome, { recursive: true, force: true });
  });

  const toolResult = async (s: SessionDriver): Promise<{ text: string; isError: boolean }> => {
    await s.waitResults(1);
    const [result] = (await s.agentLines('user'))
      .flatMap((l) => l['message']['content'])
      .filter((b: any) => b.type === 'tool_result');
    assert.ok(result, 'the search produced a tool result');
    return { text: JSON.stringify(result.content), isError: result.is_error === true };
  };
  const audit = async (sessionId: string): Promise<AuditEntry[]> =>
    (await daemon.call<{ items: AuditEntry[] }>('GET', `/api/audit?session=${sessionId}`)).body
      .items;

  it('a project search runs without a question and returns no .env or key contents', async () => {
    const s = await SessionDriver.launch(daemon, { cwd: project(), prompt: 'demo:grep needle' });
    const result = await toolResult(s);
    assert.equal(result.isError, false, result.text);
    assert.match(result.text, /app\.ts/);
    assert.doesNotMatch(result.text, new RegExp(`${ENV_SECRET}|${PEM_SECRET}`));
    const [entry] = await audit(s.id);
    assert.deepEqual([entry!.decision, entry!.decided_by], ['allow', 'rules']);
    const pending = (await daemon.call('GET', `/api/permissions?session=${s.id}`)).body.items;
    assert.equal(pending.length, 0, 'nobody was asked');
  });

  it('a search of the home folder leaves ~/.ssh out', async () => {
    const s = await SessionDriver.launch(daemon, { cwd: fakeHome, prompt: 'demo:grep needle' });
    const result = await toolResult(s);
    assert.equal(result.isError, false, result.text);
    assert.match(result.text, /notes\.txt/);
    assert.doesNotMatch(result.text, new RegExp(SSH_SECRET));
  });

  it('a filter aimed at .env or *.pem is refused, and the contents never come back', async () => {
    for (const glob of ['.env', '*.pem']) {
      const s = await SessionDriver.launch(daemon, {
        cwd: project(),
        prompt: `demo:grep needle . ${glob}`,
      });
      const result = await toolResult(s);
      assert.equal(result.isError, true, result.text);
      assert.match(result.text, /Refused by the permission gate/);
      assert.doesNotMatch(result.text, new RegExp(`${ENV_SECRET}|${PEM_SECRET}`));
    }
  });
});
