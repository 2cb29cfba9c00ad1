import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { KeyScope } from '../../../contract/keys.js';
import { startTestDaemon, type Answer, type TestDaemon } from '../testing/harness.js';

interface Operation {
  method: string;
  /** The documented path with its parameters filled. */
  path: string;
  /** What the route declares: null (public), 'owner' (no scope) or the scope a key needs. */
  scope: string | null;
}

/** One request, its headers sent as given (arrays as repeated lines); a stream is cut after 800 ms. */
function send(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string | string[]>,
): Promise<Answer> {
  const url = new URL(base);
  const hasBody = !['GET', 'HEAD', 'DELETE'].includes(method);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: {
          host: url.host,
          ...(hasBody ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        const finish = (): void => {
          clearTimeout(timer);
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // A stream's lines, or nothing.
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text });
        };
        const timer = setTimeout(() => (req.destroy(), finish()), 800);
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', finish);
        res.on('error', finish);
      },
    );
    req.on('error', reject);
    if (hasBody) req.write('{}');
    req.end();
  });
}

const SINGLE_SCOPES: KeyScope[] = ['read', 'read:all', 'launch', 'steer', 'decide', 'metrics'];
const SATISFIES: Record<string, KeyScope[]> = {
  read: ['read', 'read:all'],
  launch: ['launch'],
  steer: ['steer'],
  decide: ['decide'],
  metrics: ['metrics'],
};

const code = (answer: Answer): unknown => (answer.body as { error_code?: unknown })?.error_code;

describe('every route × every kind of key', { timeout: 600_000 }, () => {
  let daemon: TestDaemon;
  let operations: Operation[];
  const secrets = new Map<string, string>();

  const create = async (name: string, scopes: KeyScope[], subs: string[] = []) => {
    const answer = await daemon.call('POST', '/api/keys', {
      name,
      scopes,
      subscriptions: subs,
    });
    assert.equal(answer.status, 201, answer.text);
    return answer.body as { id: string; secret: string };
  };

  before(async () => {
    daemon = await startTestDaemon();
    const openapi = (await daemon.call('GET', '/api/openapi.json')).body as {
      paths: Record<string, Record<string, { 'x-relais-scope': string | null }>>;
    };
    operations = Object.entries(openapi.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({
        method: method.toUpperCase(),
        path: path.replace(/\{[^}]+\}/g, 'some-id'),
        scope: op['x-relais-scope'],
      })),
    );
    for (const scope of SINGLE_SCOPES) {
      const key = await create(`only ${scope}`, [scope], scope === 'launch' ? ['demo'] : []);
      secrets.set(scope, key.secret);
    }
    // The launch key may use the subscription the paths name, so it meets what the owner meets.
    daemon.relais.db
      .prepare(`UPDATE api_keys SET subscriptions_json = '["some-id"]' WHERE name = 'only launch'`)
      .run();
    secrets.set('none', (await create('no scope', [])).secret);
    const revoked = await create(
      'revoked',
      ['read', 'launch', 'steer', 'decide', 'metrics'],
      ['demo'],
    );
    assert.equal((await daemon.call('DELETE', `/api/keys/${revoked.id}`)).status, 200);
    secrets.set('revoked', revoked.secret);
    const expired = await create(
      'expired',
      ['read', 'launch', 'steer', 'decide', 'metrics'],
      ['demo'],
    );
    daemon.relais.db
      .prepare('UPDATE api_keys SET expires_at = ? WHERE id = ?')
      .run(new Date(Date.now() - 1000).toISOString(), expired.id);
    secrets.set('expired', expired.secret);
    // Shaped like a caller key (an existing key's id, another secret), and not shaped at all.
    secrets.set('forged', `${revoked.secret.slice(0, -43)}${'A'.repeat(43)}`);
    secrets.set('wrong', 'wrong-key');
  });
  after(async () => {
    await daemon.close();
  });

  it('the document declares who may call every route', () => {
    assert.ok(operations.length > 60, `${operations.length} operations`);
    for (const op of operations)
      assert.ok(
        op.scope === null || op.scope === 'owner' || op.scope in SATISFIES,
        `${op.method} ${op.path}: ${op.scope}`,
      );
    assert.deepEqual(
      operations.filter((op) => op.scope === null).map((op) => op.path),
      ['/api/health'],
    );
    for (const path of ['/api/keys', '/api/keys/some-id', '/api/rules', '/api/subscriptions'])
      for (const op of operations.filter((o) => o.path === path))
        assert.equal(op.scope, 'owner', `${op.method} ${path}`);
  });

  it('answers exactly as declared', async () => {
    const failures: string[] = [];
    const expect = (op: Operation, who: string, answer: Answer, status: number, error?: string) => {
      if (answer.status !== status || (error !== undefined && code(answer) !== error))
        failures.push(
          `${op.method} ${op.path} [${op.scope}] as ${who}: ${answer.status} ${String(code(answer))}, expected ${status} ${error ?? ''}`,
        );
    };
    for (const op of operations) {
      const as = (secret: string) =>
        send(daemon.base, op.method, op.path, { authorization: `Bearer ${secret}` });
      const owner = await as(daemon.key);
      if (op.scope === null) {
        expect(op, 'owner', owner, 200);
        for (const [who, secret] of secrets) expect(op, who, await as(secret), 200);
        continue;
      }
      if ([401, 403].includes(owner.status))
        failures.push(`${op.method} ${op.path} refused the owner: ${owner.status}`);
      for (const scope of SINGLE_SCOPES) {
        const answer = await as(secrets.get(scope)!);
        if (op.scope !== 'owner' && SATISFIES[op.scope]!.includes(scope))
          expect(op, scope, answer, owner.status);
        else {
          expect(op, scope, answer, 403, 'scope_missing');
          const needed = op.scope;
          if (
            !String((answer.body as { message?: string }).message).includes(`"${needed}"`) &&
            !(
              needed === 'owner' &&
              /owner/.test(String((answer.body as { message?: string }).message))
            )
          )
            failures.push(`${op.method} ${op.path} as ${scope}: the message names no scope`);
        }
      }
      expect(op, 'no scope', await as(secrets.get('none')!), 403, 'scope_missing');
      expect(op, 'revoked', await as(secrets.get('revoked')!), 401, 'key_invalid');
      expect(op, 'expired', await as(secrets.get('expired')!), 401, 'key_expired');
      expect(op, 'forged', await as(secrets.get('forged')!), 401, 'key_invalid');
      expect(op, 'wrong', await as(secrets.get('wrong')!), 401, 'key_invalid');
      expect(op, 'no key', await send(daemon.base, op.method, op.path, {}), 401, 'unauthorized');
    }
    assert.deepEqual(failures, []);
  });

  describe('keys in odd places', () => {
    const path = '/api/sessions';
    it('a key in the query string or a cookie is no key', async () => {
      const key = encodeURIComponent(daemon.key);
      for (const query of ['key', 'api_key', 'access_token', 'token', 'authorization'])
        assert.equal((await send(daemon.base, 'GET', `${path}?${query}=${key}`, {})).status, 401);
      for (const cookie of [
        `key=${daemon.key}`,
        `authorization=Bearer ${daemon.key}`,
        `relais_key=${daemon.key}`,
      ])
        assert.equal((await send(daemon.base, 'GET', path, { cookie })).status, 401, cookie);
      const read = secrets.get('read')!;
      assert.equal((await send(daemon.base, 'GET', `${path}?key=${read}`, {})).status, 401);
    });

    it('two Authorization headers are refused, whichever comes first', async () => {
      for (const pair of [
        [`Bearer ${daemon.key}`, 'Bearer wrong-key'],
        ['Bearer wrong-key', `Bearer ${daemon.key}`],
        [`Bearer ${daemon.key}`, `Bearer ${daemon.key}`],
        [`Bearer ${secrets.get('read')!}`, `Bearer ${daemon.key}`],
      ]) {
        const answer = await send(daemon.base, 'GET', path, { authorization: pair });
        assert.equal(answer.status, 401, pair.join(' / '));
        assert.equal(code(answer), 'unauthorized');
      }
      const comma = await send(daemon.base, 'GET', path, {
        authorization: `Bearer ${daemon.key}, Bearer ${daemon.key}`,
      });
      assert.equal(comma.status, 401);
    });

    it('the scheme in any case; the key exactly', async () => {
      for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR'])
        assert.equal(
          (await send(daemon.base, 'GET', path, { authorization: `${scheme} ${daemon.key}` }))
            .status,
          200,
          scheme,
        );
      for (const authorization of [
        `Bearer ${daemon.key.toUpperCase()}`,
        `Bearer ${daemon.key.toLowerCase()}`,
        `Bearer ${daemon.key}x`,
        `Bearer ${daemon.key.slice(0, -1)}`,
        `Bearer ${secrets.get('read')!.toUpperCase()}`,
        `Bearer ${secrets.get('read')!.slice(0, -1)}`,
        `Basic ${daemon.key}`,
        `Bearer${daemon.key}`,
        `Bearer ${daemon.key} extra`,
        `Token ${daemon.key}`,
        daemon.key,
      ]) {
        const answer = await send(daemon.base, 'GET', path, { authorization });
        assert.equal(answer.status, 401, authorization);
      }
    });
  });
});
