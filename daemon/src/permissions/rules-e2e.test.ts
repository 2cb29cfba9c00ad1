import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { AuditEntry, RuleCheckResult, RulesView } from '../../../contract/permissions.js';
import { rawRequest, startTestDaemon, waitFor, type TestDaemon } from '../testing/harness.js';
import { SessionDriver } from '../testing/session-driver.js';
import { workdir } from '../testing/fixtures.js';

describe('permission engine in front of the real Claude Code', { timeout: 180_000 }, () => {
  let daemon: TestDaemon;
  before(async () => {
    daemon = await startTestDaemon();
  });
  after(async () => {
    await daemon.close();
  });

  const audit = async (query: string): Promise<AuditEntry[]> =>
    (await daemon.call<{ items: AuditEntry[] }>('GET', `/api/audit?${query}`)).body.items;

  it('a command a rule refuses is never executed, and the agent is told the rule', async () => {
    const cwd = workdir();
    mkdirSync(join(cwd, 'build'));
    writeFileSync(join(cwd, 'build', 'keep.txt'), 'precious');
    const s = await SessionDriver.launch(daemon, { cwd, prompt: 'demo:bash rm -rf build' });
    await s.waitResults(1);
    assert.ok(existsSync(join(cwd, 'build', 'keep.txt')), 'the refused command ran');
    const texts = await s.assistantTexts();
    assert.match(
      texts[texts.length - 1]!,
      /Refused by the permission gate/,
      "the agent's next message carries the reason",
    );
    const results = (await s.agentLines('user'))
      .flatMap((l) => l['message']['content'])
      .filter((b: any) => b.type === 'tool_result');
    assert.equal(results[0].is_error, true);
    assert.match(
      JSON.stringify(results[0].content),
      /rm-recursive-or-forced[\s\S]*Do not work around this rule; report it/,
    );
    const entries = await audit(`session=${s.id}`);
    assert.equal(entries[0]!.decision, 'deny');
    assert.equal(entries[0]!.step, 'rule');
    assert.equal(entries[0]!.decided_by, 'rules');
    assert.match(entries[0]!.input_summary ?? '', /rm -rf build/);
    const pending = (await daemon.call('GET', `/api/permissions?session=${s.id}`)).body.items;
    assert.equal(pending.length, 0, 'nobody was asked');
  });

  it('read-only mode refuses a write', async () => {
    const cwd = workdir();
    const s = await SessionDriver.launch(daemon, {
      cwd,
      prompt: 'demo:write notes.txt hello',
      permission_mode: 'read_only',
    });
    await s.waitResults(1);
    assert.equal(existsSync(join(cwd, 'notes.txt')), false);
    const entries = await audit(`session=${s.id}`);
    assert.equal(entries[0]!.step, 'mode');
    assert.equal(entries[0]!.decision, 'deny');
  });

  it('dry-run records what would have run, even a command the agent would run by itself', async () => {
    const cwd = workdir();
    const s = await SessionDriver.launch(daemon, {
      cwd,
      prompt: 'demo:bash echo hi > out.txt',
      permission_mode: 'dry_run',
    });
    await s.waitResults(1);
    assert.equal(existsSync(join(cwd, 'out.txt')), false);
    const [entry] = await audit(`session=${s.id}`);
    assert.match(entry!.detail ?? '', /dry run: would have run/);
    const texts = await s.assistantTexts();
    assert.match(texts[texts.length - 1]!, /dry run/);
  });

  it('in write mode, even a command the agent considers harmless goes to a person', async () => {
    const s = await SessionDriver.launch(daemon, {
      cwd: workdir(),
      prompt: 'demo:bash echo hello',
    });
    const permission = await s.pendingPermission();
    assert.equal(permission.input['command'], 'echo hello');
    await s.decide(permission.id, { decision: 'allow' });
    await s.waitResults(1);
    const [entry] = await audit(`session=${s.id}`);
    assert.deepEqual([entry!.decision, entry!.decided_by], ['allow', 'console']);
  });

  it('the audit names the tool that answered (X-Relais-App), the terminal as much as the console', async () => {
    const s = await SessionDriver.launch(daemon, { cwd: workdir(), prompt: 'demo:bash echo hi' });
    const permission = await s.pendingPermission();
    const answered = await daemon.call(
      'POST',
      `/api/permissions/${permission.id}/decision`,
      { decision: 'deny', message: 'not now' },
      { 'x-relais-app': 'relais-terminal' },
    );
    assert.equal(answered.status, 200, answered.text);
    const [entry] = await audit(`session=${s.id}`);
    assert.deepEqual([entry!.decision, entry!.decided_by], ['deny', 'relais-terminal']);
  });

  it('POST /api/rules/check answers like the sessions do', async () => {
    const cwd = workdir();
    const check = async (
      tool_name: string,
      input: Record<string, unknown>,
      permission_mode = 'write',
    ): Promise<RuleCheckResult> =>
      (
        await daemon.call<RuleCheckResult>('POST', '/api/rules/check', {
          tool_name,
          input,
          cwd,
          permission_mode,
        })
      ).body;
    assert.equal(
      (await check('Bash', { command: 'git push --force origin main' })).decision,
      'deny',
    );
    assert.notEqual(
      (await check('Bash', { command: 'git push --force-with-lease origin main' })).rule,
      'git-push-force',
    );
    assert.equal((await check('Read', { file_path: join(cwd, 'a.txt') })).decision, 'allow');
    assert.equal(
      (await check('Write', { file_path: join(cwd, 'a.txt'), content: 'x' })).decision,
      'ask',
    );
    assert.equal(
      (await check('Write', { file_path: join(cwd, 'a.txt'), content: 'x' }, 'read_only')).step,
      'mode',
    );
    const keyFile = await check('Read', { file_path: join(daemon.home, 'api-key') });
    assert.equal(keyFile.decision, 'deny', 'the key file is always zero-access');
    assert.equal(
      (
        await daemon.call('POST', '/api/rules/check', {
          tool_name: 'Bash',
          input: {},
          cwd,
          permission_mode: 'yolo',
        })
      ).status,
      400,
    );
  });

  it('rules are validated on PUT: an invalid set is refused with its line, the previous rules stay; a change is audited', async () => {
    const before = (await daemon.call<RulesView>('GET', '/api/rules')).body;
    assert.equal(before.source, 'default');
    const invalid = await daemon.call('PUT', '/api/rules', {
      rules: [
        ...before.rules,
        { id: 'broken', kind: 'bash', pattern: '(unclosed', action: 'deny', reason: 'x' },
      ],
    });
    assert.equal(invalid.status, 400);
    assert.equal(invalid.body.error_code, 'invalid_rules');
    assert.ok(invalid.body.line > 0);
    assert.equal((await daemon.call<RulesView>('GET', '/api/rules')).body.version, before.version);

    const rule = {
      id: 'no-curl',
      kind: 'bash',
      pattern: '\\bcurl\\b',
      action: 'deny',
      reason: 'no network from agents',
    };
    const saved = await daemon.call<RulesView>(
      'PUT',
      '/api/rules',
      { rules: [rule, ...before.rules] },
      { 'x-relais-app': 'tests' },
    );
    assert.equal(saved.status, 200);
    assert.equal(saved.body.version, before.version + 1);
    assert.equal(saved.body.source, 'file');
    // A second editor still holding the set as it was read: refused, nothing undone.
    const stale = await daemon.call('PUT', '/api/rules', {
      version: before.version,
      rules: before.rules,
    });
    assert.equal(stale.status, 409);
    assert.equal(stale.body.error_code, 'rules_changed');
    assert.equal(stale.body.version, before.version + 1);
    const kept = (await daemon.call<RulesView>('GET', '/api/rules')).body;
    assert.equal(kept.version, before.version + 1);
    assert.equal(kept.rules[0]!.id, 'no-curl');
    assert.ok(existsSync(saved.body.file_path));
    const [change] = await audit('kind=rules_change');
    assert.equal(change!.decided_by, 'tests');
    assert.match(change!.detail ?? '', /\+1 \(no-curl\)/);
    const verdict = (
      await daemon.call<RuleCheckResult>('POST', '/api/rules/check', {
        tool_name: 'Bash',
        input: { command: 'curl x' },
        cwd: workdir(),
        permission_mode: 'write',
      })
    ).body;
    assert.equal(verdict.rule, 'no-curl');
  });

  it('the audit trail filters and exports as CSV and JSON', async () => {
    const denied = await audit('decision=deny&limit=500');
    assert.ok(denied.length >= 3 && denied.every((e) => e.decision === 'deny'));
    const bash = await audit('tool=Bash');
    assert.ok(bash.every((e) => e.tool_name === 'Bash'));
    const csv = await rawRequest(
      daemon.base,
      'GET',
      '/api/audit/export?format=csv&decision=deny',
      undefined,
      { authorization: `Bearer ${daemon.key}` },
    );
    assert.match(String(csv.headers['content-type']), /text\/csv/);
    const lines = csv.text.trimEnd().split('\r\n');
    assert.equal(
      lines[0],
      'id,time,kind,session_id,subscription_id,tool_name,input_summary,step,rule,decision,decided_by,detail',
    );
    assert.ok(lines.length - 1 >= denied.length);
    const json = await daemon.call<AuditEntry[]>(
      'GET',
      '/api/audit/export?format=json&decision=deny',
    );
    assert.equal(json.body.length, lines.length - 1);
  });
});

describe('nobody listening', { timeout: 60_000 }, () => {
  it('a request that needs a person is refused at once when no console or client listens', async () => {
    const daemon = await startTestDaemon({ listening: false });
    try {
      const cwd = workdir();
      const s = await SessionDriver.launch(daemon, { cwd, prompt: 'demo:bash touch lonely.txt' });
      await s.waitResults(1);
      assert.equal(existsSync(join(cwd, 'lonely.txt')), false);
      const entries = (
        await daemon.call<{ items: AuditEntry[] }>('GET', `/api/audit?session=${s.id}`)
      ).body.items;
      assert.equal(entries[0]!.decided_by, 'nobody_listening');
      await waitFor('idle', async () => (await s.session()).state === 'idle');
    } finally {
      await daemon.close();
    }
  });
});
