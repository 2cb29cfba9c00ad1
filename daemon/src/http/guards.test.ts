import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { rawRequest, startTestDaemon, type TestDaemon } from '../testing/harness.js';
import { isAllowedHost, keyMatches, parseHost } from './guards.js';

describe('guard rails', { timeout: 60_000 }, () => {
  let daemon: TestDaemon;
  let port: number;
  let openapi: { paths: Record<string, Record<string, { security: unknown[] }>> };

  before(async () => {
    daemon = await startTestDaemon({ config: { bodyLimitBytes: 64 * 1024 } });
    port = daemon.relais.port();
    openapi = (await daemon.call('GET', '/api/openapi.json')).body;
  });
  after(async () => {
    await daemon.close();
  });

  const operations = (): { method: string; path: string; open: boolean }[] =>
    Object.entries(openapi.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({
        method: method.toUpperCase(),
        path: path.replace(/\{[^}]+\}/g, 'some-id'),
        open: op.security.length === 0,
      })),
    );

  it('the OpenAPI document lists the API, and only /api/health is open', () => {
    const list = operations();
    assert.ok(list.length >= 20, `only ${list.length} operations documented`);
    assert.deepEqual(
      list.filter((op) => op.open).map((op) => op.path),
      ['/api/health'],
    );
  });

  it('no key or a wrong key → 401 JSON on every route of the OpenAPI document', async () => {
    for (const op of operations().filter((o) => !o.open)) {
      for (const [headers, code] of [
        [{}, 'unauthorized'],
        [{ authorization: 'Bearer wrong-key' }, 'key_invalid'],
        [{ authorization: `Basic ${daemon.key}` }, 'unauthorized'],
      ] as [Record<string, string>, string][]) {
        const answer = await rawRequest(
          daemon.base,
          op.method,
          op.path,
          op.method === 'GET' || op.method === 'DELETE' ? undefined : '{}',
          {
            ...headers,
            'content-type': 'application/json',
          },
        );
        assert.equal(answer.status, 401, `${op.method} ${op.path} answered ${answer.status}`);
        assert.equal(answer.body.error_code, code);
      }
    }
  });

  it('the key is accepted only exactly', () => {
    assert.equal(keyMatches('abc', 'abc'), true);
    assert.equal(keyMatches('abc', 'abcd'), false);
    assert.equal(keyMatches('', 'abc'), false);
  });

  it('a foreign Host is refused with 403, even with the key (DNS rebinding)', async () => {
    for (const host of [
      'evil.example',
      `evil.example:${port}`,
      `127.0.0.1:${port + 1}`,
      '127.0.0.1',
      `localhost.evil:${port}`,
      `10.0.0.1:${port}`,
    ]) {
      const answer = await rawRequest(daemon.base, 'GET', '/api/sessions', undefined, {
        host,
        authorization: `Bearer ${daemon.key}`,
      });
      assert.equal(answer.status, 403, `Host ${host}`);
      assert.equal(answer.body.error_code, 'forbidden_host');
    }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      const answer = await rawRequest(daemon.base, 'GET', '/api/sessions', undefined, {
        host,
        authorization: `Bearer ${daemon.key}`,
      });
      assert.equal(answer.status, 200, `Host ${host}`);
    }
  });

  it('a foreign Origin is refused with 403; the own origin passes; no CORS header ever', async () => {
    const evil = await rawRequest(daemon.base, 'GET', '/api/sessions', undefined, {
      origin: 'http://evil.example',
      authorization: `Bearer ${daemon.key}`,
    });
    assert.equal(evil.status, 403);
    assert.equal(evil.body.error_code, 'forbidden_origin');
    const own = await rawRequest(daemon.base, 'GET', '/api/sessions', undefined, {
      origin: `http://127.0.0.1:${port}`,
      authorization: `Bearer ${daemon.key}`,
    });
    assert.equal(own.status, 200);
    const preflight = await rawRequest(daemon.base, 'OPTIONS', '/api/sessions', undefined, {
      origin: `http://127.0.0.1:${port}`,
      'access-control-request-method': 'POST',
    });
    for (const answer of [evil, own, preflight]) {
      assert.ok(
        !Object.keys(answer.headers).some((h) => h.startsWith('access-control-')),
        'a CORS header leaked',
      );
    }
  });

  it('bad bodies get clear 4xx errors, never a 500', async () => {
    const auth = { authorization: `Bearer ${daemon.key}`, 'content-type': 'application/json' };
    const big = await rawRequest(
      daemon.base,
      'POST',
      '/api/subscriptions',
      JSON.stringify({ name: 'x'.repeat(100_000) }),
      auth,
    );
    assert.equal(big.status, 413);
    assert.equal(big.body.error_code, 'payload_too_large');
    const malformed = await rawRequest(
      daemon.base,
      'POST',
      '/api/subscriptions',
      '{"name": ',
      auth,
    );
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.error_code, 'invalid_json');
    const wrongShape = await rawRequest(
      daemon.base,
      'POST',
      '/api/sessions',
      JSON.stringify({ subscription_id: 5 }),
      auth,
    );
    assert.equal(wrongShape.status, 400);
    assert.equal(wrongShape.body.error_code, 'invalid_request');
    assert.match(wrongShape.body.message, /subscription_id/);
    const extra = await rawRequest(
      daemon.base,
      'POST',
      '/api/sessions/x/messages',
      JSON.stringify({ text: 'hi', evil: true }),
      auth,
    );
    assert.equal(extra.status, 400);
    const text = await rawRequest(daemon.base, 'POST', '/api/subscriptions', 'name=x', {
      ...auth,
      'content-type': 'text/plain',
    });
    assert.equal(text.status, 415);
    const badQuery = await daemon.call('GET', '/api/sessions?state=flying');
    assert.equal(badQuery.status, 400);
    const unknown = await daemon.call('GET', '/api/nothing-here');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error_code, 'route_not_found');
    const missing = await daemon.call('GET', '/api/sessions/ses_missing');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error_code, 'not_found');
  });

  it('host parsing', () => {
    assert.deepEqual(parseHost('[::1]:80'), { name: '[::1]', port: 80 });
    assert.equal(parseHost('a:b:c'), null);
    assert.equal(isAllowedHost('LOCALHOST:4317', 4317), true);
    assert.equal(isAllowedHost(undefined, 4317), false);
  });
});
