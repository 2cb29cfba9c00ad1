import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { PermissionRequest, Session } from '../../../contract/api.js';
import type { ApiKey, ApiKeyCreated, KeyScope } from '../../../contract/keys.js';
import { openNdjsonClient } from '../testing/ndjson-client.js';
import { startTestDaemon, waitFor, type TestDaemon } from '../testing/harness.js';
import { workdir } from '../testing/fixtures.js';

describe('caller keys', { timeout: 180_000 }, () => {
  let daemon: TestDaemon;
  const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });
  const create = async (
    name: string,
    scopes: KeyScope[],
    subscriptions: string[] = [],
  ): Promise<ApiKeyCreated> => {
    const answer = await daemon.call<ApiKeyCreated>('POST', '/api/keys', {
      name,
      scopes,
      subscriptions,
    });
    assert.equal(answer.status, 201, answer.text);
    return answer.body;
  };
  const launch = (secret: string | null, body: Record<string, unknown>, headers = {}) =>
    daemon.call<Session>(
      'POST',
      '/api/sessions',
      { subscription_id: 'demo', model: 'demo-sonnet', cwd: workdir(), ...body },
      { ...(secret ? bearer(secret) : {}), ...headers },
    );
  const pending = (sessionId: string) =>
    waitFor('a pending prompt', async () => {
      const list = await daemon.call<{ items: PermissionRequest[] }>(
        'GET',
        `/api/permissions?state=pending&session=${sessionId}`,
      );
      return list.body.items[0];
    });

  before(async () => {
    daemon = await startTestDaemon();
  });
  after(async () => {
    await daemon.close();
  });

  it('the secret is answered once, kept only as a hash, and listed never', async () => {
    const key = await create('Secret keeper', ['read']);
    assert.match(key.secret, /^relais_[0-9a-z]+_[A-Za-z0-9_-]{43}$/);
    assert.ok(key.secret.startsWith(key.prefix.replace('…', '')));
    const list = await daemon.call<{ items: ApiKey[] }>('GET', '/api/keys');
    const listed = list.body.items.find((k) => k.id === key.id)!;
    assert.equal('secret' in listed, false);
    assert.ok(!list.text.includes(key.secret.slice(-43)));
    daemon.relais.db.pragma('wal_checkpoint(TRUNCATE)');
    const file = readFileSync(join(daemon.home, 'relais.db'));
    assert.equal(file.includes(key.secret.slice(-43)), false, 'the secret is in the database');
  });

  it('bad creations are refused with 400, never a 500', async () => {
    for (const body of [
      { name: 'x', scopes: ['decide_own'] },
      { name: 'x', scopes: ['launch'] },
      { name: 'x', scopes: ['launch'], subscriptions: ['nope'] },
      { name: 'x', scopes: ['root'] },
      { name: 'x\u0000y', scopes: [] },
      { name: 'x\u202ey', scopes: [] },
      { name: '', scopes: [] },
      { name: 'x'.repeat(81), scopes: [] },
      { name: 'x', scopes: [], expires_at: '2001-01-01T00:00:00Z' },
      { name: 'x', scopes: [], expires_at: 'tomorrow' },
      { name: 'x', scopes: Array(50).fill('read') },
      { name: 'x', scopes: [], secret: 'mine' },
      { name: 'Secret keeper', scopes: [] },
      { name: 'SECRET KEEPER', scopes: [] },
      [],
      'key',
    ]) {
      const answer = await daemon.call('POST', '/api/keys', body);
      assert.equal(answer.status, 400, `${JSON.stringify(body)} → ${answer.text}`);
      assert.equal(typeof answer.body.error_code, 'string');
    }
    assert.equal((await daemon.call('DELETE', '/api/keys/key_nothing')).status, 404);
  });

  it('a launching key names its sessions, reads and steers only its own, and cannot answer their prompts', async () => {
    // It may decide, but not for the sessions it launched itself (no decide_own).
    const tool = await create('Build bot', ['launch', 'read', 'steer', 'decide'], ['demo']);
    const judge = await create('Reviewer', ['decide']);
    const mine = await launch(
      tool.secret,
      { prompt: 'demo:bash echo hi', app: 'console' },
      { 'x-relais-app': 'console' },
    );
    assert.equal(mine.status, 201, mine.text);
    assert.equal(mine.body.app, 'Build bot');
    assert.deepEqual(mine.body.caller, { id: tool.id, name: 'Build bot' });
    const other = await launch(null, { prompt: 'hello', app: 'owner tool' });
    assert.equal(other.body.caller, null);
    const codex = await launch(tool.secret, { subscription_id: 'demo-codex', model: 'x' });
    assert.equal(codex.status, 403);
    assert.equal(
      (codex.body as unknown as { error_code: string }).error_code,
      'subscription_not_allowed',
    );

    // Reads: its own session, lists cut to its own; the owner's session does not exist for it.
    const as = bearer(tool.secret);
    assert.equal(
      (await daemon.call('GET', `/api/sessions/${mine.body.id}`, undefined, as)).status,
      200,
    );
    for (const path of ['', '/events', '/outline', '/queue', '/search?q=hello'])
      assert.equal(
        (await daemon.call('GET', `/api/sessions/${other.body.id}${path}`, undefined, as)).status,
        404,
        path,
      );
    const list = await daemon.call<{ items: Session[] }>(
      'GET',
      '/api/sessions?limit=50',
      undefined,
      as,
    );
    assert.deepEqual(
      list.body.items.map((s) => s.id),
      [mine.body.id],
    );
    const spoofed = await daemon.call<{ items: Session[] }>(
      'GET',
      `/api/sessions?caller=${judge.id}`,
      undefined,
      as,
    );
    assert.deepEqual(
      spoofed.body.items.map((s) => s.id),
      [mine.body.id],
    );
    const ownerList = await daemon.call<{ items: Session[] }>(
      'GET',
      `/api/sessions?caller=${tool.id}`,
    );
    assert.deepEqual(
      ownerList.body.items.map((s) => s.id),
      [mine.body.id],
    );
    for (const path of ['interrupt', 'stop', 'heartbeat'])
      assert.equal(
        (await daemon.call('POST', `/api/sessions/${other.body.id}/${path}`, {}, as)).status,
        404,
        path,
      );
    assert.equal(
      (await daemon.call('POST', `/api/sessions/${other.body.id}/messages`, { text: 'x' }, as))
        .status,
      404,
    );

    // Its own prompt: refused to it (403 naming decide_own), answered by a key that may decide.
    const prompt = await pending(mine.body.id);
    const prompts = await daemon.call<{ items: PermissionRequest[] }>(
      'GET',
      '/api/permissions',
      undefined,
      as,
    );
    assert.deepEqual(
      prompts.body.items.map((p) => p.id),
      [prompt.id],
    );
    const reader = await create('Reader', ['read']);
    const none = await daemon.call<{ items: PermissionRequest[] }>(
      'GET',
      `/api/permissions?state=pending&session=${mine.body.id}`,
      undefined,
      bearer(reader.secret),
    );
    assert.deepEqual(none.body.items, [], "another key's prompts reached a reader");
    const lister = await create('Prompt lister', ['read', 'decide']);
    const listed = await daemon.call<{ items: PermissionRequest[] }>(
      'GET',
      '/api/permissions?state=pending',
      undefined,
      bearer(lister.secret),
    );
    assert.ok(listed.body.items.some((p) => p.id === prompt.id));
    const refused = await daemon.call(
      'POST',
      `/api/permissions/${prompt.id}/decision`,
      { decision: 'allow' },
      as,
    );
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error_code, 'scope_missing');
    assert.match(refused.body.message, /decide_own/);
    const always = await daemon.call(
      'POST',
      `/api/permissions/${prompt.id}/decision`,
      { decision: 'allow', scope: 'always' },
      bearer(judge.secret),
    );
    assert.equal(always.status, 403);
    const answered = await daemon.call<PermissionRequest>(
      'POST',
      `/api/permissions/${prompt.id}/decision`,
      { decision: 'allow' },
      bearer(judge.secret),
    );
    assert.equal(answered.status, 200, answered.text);
    assert.equal(answered.body.decided_by, 'Reviewer');
    const audit = await daemon.call('GET', `/api/audit?session=${mine.body.id}`);
    const line = audit.body.items.find((a: { decided_by: string }) => a.decided_by === 'Reviewer');
    assert.equal(line.key_id, judge.id);
    assert.equal(JSON.stringify(audit.body).includes(judge.secret), false);

    // Analytics: the key's own turns only, whatever filter it sends; the owner filters by caller.
    await waitFor('the turn', async () => {
      const s = await daemon.call<Session>('GET', `/api/sessions/${mine.body.id}`);
      return s.body.turns >= 1;
    });
    await waitFor('the other turn', async () => {
      const s = await daemon.call<Session>('GET', `/api/sessions/${other.body.id}`);
      return s.body.turns >= 1;
    });
    const summary = await daemon.call(
      'GET',
      `/api/analytics/summary?caller=${judge.id}`,
      undefined,
      as,
    );
    assert.equal(summary.status, 200, summary.text);
    assert.equal(summary.body.sessions, 1);
    const everything = await daemon.call('GET', '/api/analytics/summary');
    assert.ok(everything.body.sessions >= 2);
    const exported = await daemon.call('GET', '/api/analytics/export?format=ndjson', undefined, as);
    assert.equal(exported.status, 200);
    const rows = exported.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { session_id: string });
    assert.ok(rows.length >= 1);
    assert.deepEqual([...new Set(rows.map((row) => row.session_id))], [mine.body.id]);
    const byOwner = await daemon.call('GET', `/api/analytics/summary?caller=${tool.id}`);
    assert.equal(byOwner.body.sessions, 1);

    // The audit names the key for each change it asked for, done or refused, and its creation.
    const access = await daemon.call<{ items: Record<string, unknown>[] }>(
      'GET',
      '/api/audit?kind=access&limit=500',
    );
    const ofTool = access.body.items.filter((line) => line['key_id'] === tool.id);
    const accessLine = (detail: RegExp) => ofTool.find((l) => detail.test(String(l['detail'])));
    assert.equal(
      accessLine(/^Build bot: launch read steer decide on demo$/)?.['decision'],
      'key_created',
    );
    const launched = accessLine(/^POST \/api\/sessions → 201$/)!;
    assert.equal(launched['decided_by'], 'Build bot');
    assert.equal(launched['subscription_id'], 'demo');
    assert.equal(accessLine(/^POST \/api\/sessions → 403$/)?.['decision'], 'refused');
    assert.equal(
      accessLine(/^POST \/api\/sessions\/:id\/stop → 404$/)?.['session_id'],
      other.body.id,
    );
    assert.equal(JSON.stringify(access.body).includes(tool.secret), false);

    const keys = await daemon.call<{ items: ApiKey[] }>('GET', '/api/keys');
    const used = keys.body.items.find((k) => k.id === tool.id)!;
    assert.ok(used.last_used_at);
    assert.equal(used.last_used_from, '127.0.0.1');
  });

  it('a launching key cannot run a command of its own or spare its sessions a person', async () => {
    const tool = await create('Sneaky', ['launch'], ['demo']);
    const marker = join(mkdtempSync(join(tmpdir(), 'relais-mcp-')), 'ran');
    const stdio = await launch(tool.secret, {
      prompt: 'hello',
      mcp_servers: {
        x: { command: '/bin/sh', args: ['-c', `touch ${marker}`], allowed_tools: ['t'] },
      },
    });
    assert.equal(stdio.status, 403, stdio.text);
    assert.equal((stdio.body as unknown as { error_code: string }).error_code, 'scope_missing');
    assert.equal(existsSync(marker), false, 'the command ran');
    const unasked = await launch(tool.secret, { prompt: 'hello', confined_without_asking: true });
    assert.equal(unasked.status, 403, unasked.text);
  });

  it('revoking a key ends its open streams at once and refuses it from then on', async () => {
    const tool = await create('Streamer', ['launch', 'read'], ['demo']);
    const session = await launch(tool.secret, { prompt: 'hello' });
    const owners = await launch(null, { prompt: 'hello' });
    const own = await openNdjsonClient(
      daemon.base,
      tool.secret,
      `/api/sessions/${session.body.id}/stream`,
    );
    const global = await openNdjsonClient(daemon.base, tool.secret, '/api/stream');
    await waitFor('the snapshot', () =>
      global.lines.some((l) => (l.value as { type: string }).type === 'snapshot_end'),
    );
    const seen = global.lines
      .map((l) => l.value as { type: string; session?: Session })
      .filter((l) => l.type === 'session')
      .map((l) => l.session!.id);
    assert.ok(seen.includes(session.body.id));
    assert.ok(!seen.includes(owners.body.id), 'the owner session reached a confined key');
    const started = Date.now();
    const revoked = await daemon.call<ApiKey>('DELETE', `/api/keys/${tool.id}`);
    assert.equal(revoked.status, 200);
    assert.ok(revoked.body.revoked_at);
    const late = new Promise((_, reject) =>
      setTimeout(() => reject(new Error('the streams outlived their key')), 3000).unref(),
    );
    await Promise.race([Promise.all([own.ended, global.ended]), late]);
    assert.ok(Date.now() - started < 1500, `ended after ${Date.now() - started} ms`);
    const audit = await daemon.call<{ items: Record<string, unknown>[] }>(
      'GET',
      '/api/audit?kind=access',
    );
    const revokedLine = audit.body.items.find(
      (l) => l['key_id'] === tool.id && l['decision'] === 'key_revoked',
    );
    assert.equal(revokedLine?.['detail'], 'Streamer: 2 open answer(s) ended');
    const after = await daemon.call('GET', '/api/sessions', undefined, bearer(tool.secret));
    assert.equal(after.status, 401);
    assert.equal(after.body.error_code, 'key_invalid');
  });
});
