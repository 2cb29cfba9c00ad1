import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { request as httpRequest } from 'node:http';
import { startTestDaemon, type Answer, type TestDaemon } from '../testing/harness.js';

/**
 * A raw request that sends the path exactly as given and gives up shortly after the headers when the
 * body does not end (a live stream opened where it must not be).
 */
function probe(
  base: string,
  method: string,
  path: string,
  body: string | undefined,
  headers: Record<string, string>,
): Promise<Answer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, method, path, headers: { host: url.host, ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        const finish = (): void => {
          clearTimeout(timer);
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            // Not JSON: the test sees the text.
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed, text });
        };
        const timer = setTimeout(() => (req.destroy(), finish()), 1000);
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', finish);
        res.on('error', finish);
      },
    );
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

interface Operation {
  method: string;
  /** The documented path with its parameters filled, e.g. /api/sessions/some-id. */
  path: string;
  open: boolean;
}

/** One letter as %xx, in lower or upper hex. */
const encode = (char: string, upper: boolean): string => {
  const hex = char.charCodeAt(0).toString(16);
  return `%${upper ? hex.toUpperCase() : hex}`;
};

/**
 * Spellings of one /api path that a router or a file server might take for the same route: each
 * letter of the prefix percent-encoded, a later letter whose hex has letters in both cases, case,
 * doubled slashes, dot segments and a trailing encoded slash.
 */
export function spellings(path: string): string[] {
  // The first segment: /api for the API, /metrics for the scrape route.
  const head = /^\/([^/]+)/.exec(path)![1]!;
  const rest = path.slice(head.length + 1);
  const variants = [path];
  for (const upper of [false, true]) {
    for (let i = 0; i < Math.min(3, head.length); i++) {
      const prefix = [...head].map((c, j) => (i === j ? encode(c, upper) : c)).join('');
      variants.push(`/${prefix}${rest}`);
    }
    variants.push(`/${[...head].map((c) => encode(c, upper)).join('')}${rest}`);
    variants.push(`/${head}${encode('/', upper)}${rest.slice(1)}`);
    variants.push(`${path}${encode('/', upper)}`);
    const hexLetter = [...rest].findIndex((c) => /[j-oz]/.test(c));
    if (hexLetter >= 0)
      variants.push(
        `/${head}${rest.slice(0, hexLetter)}${encode(rest[hexLetter]!, upper)}${rest.slice(hexLetter + 1)}`,
      );
  }
  variants.push(
    `/${head.toUpperCase()}${rest}`,
    `/${head[0]!.toUpperCase()}${head.slice(1)}${rest}`,
    `/${head}${rest.toUpperCase()}`,
    `/${path}`,
    `/${head}/${rest}`,
    `${path.replace(/\//g, '//')}`,
    `/x/../${head}${rest}`,
    `/./${head}${rest}`,
    `/${head}/.${rest}`,
    `/${head}/x/..${rest}`,
    `/%2e/${head}${rest}`,
    `/x/%2e%2e/${head}${rest}`,
    `/${head}${rest}/`,
    `/${head}${rest}/.`,
    `/${head}\\${rest.slice(1)}`,
  );
  return [...new Set(variants)];
}

describe('the key holds on every path the router can match', { timeout: 300_000 }, () => {
  let daemon: TestDaemon;
  let consoleDir: string;
  let operations: Operation[];

  before(async () => {
    consoleDir = mkdtempSync(join(tmpdir(), 'relais-console-'));
    writeFileSync(join(consoleDir, 'index.html'), '<!doctype html><title>console</title>');
    daemon = await startTestDaemon({ config: { consoleDir } });
    const openapi = (await daemon.call('GET', '/api/openapi.json')).body as {
      paths: Record<string, Record<string, { security: unknown[] }>>;
    };
    operations = Object.entries(openapi.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({
        method: method.toUpperCase(),
        path: path.replace(/\{[^}]+\}/g, 'some-id'),
        open: op.security.length === 0,
      })),
    );
  });
  after(async () => {
    await daemon.close();
    rmSync(consoleDir, { recursive: true, force: true });
  });

  const send = (method: string, path: string, headers: Record<string, string>): Promise<Answer> =>
    probe(
      daemon.base,
      method,
      path,
      method === 'GET' || method === 'DELETE' || method === 'HEAD' ? undefined : '{}',
      method === 'GET' || method === 'DELETE' || method === 'HEAD'
        ? headers
        : { 'content-type': 'application/json', ...headers },
    );

  it('spells every path many ways', () => {
    const variants = spellings('/api/subscriptions');
    for (const expected of [
      '/%61pi/subscriptions',
      '/a%70i/subscriptions',
      '/ap%69/subscriptions',
      '/api/subscripti%6fns',
      '/api/subscripti%6Fns',
      '/api/subscriptions%2F',
      '/API/subscriptions',
      '//api/subscriptions',
      '/x/../api/subscriptions',
    ])
      assert.ok(variants.includes(expected), expected);
  });

  it('without the key or with a wrong one, no spelling of a keyed route answers 2xx', async () => {
    const failures: string[] = [];
    let tried = 0;
    for (const op of operations.filter((o) => !o.open)) {
      for (const path of spellings(op.path)) {
        for (const headers of [{}, { authorization: 'Bearer wrong-key' }] as Record<
          string,
          string
        >[]) {
          for (const method of op.method === 'GET' ? ['GET', 'HEAD'] : [op.method]) {
            tried++;
            const answer = await send(method, path, headers);
            const jsonError =
              method === 'HEAD' ||
              (typeof (answer.body as { error_code?: unknown })?.error_code === 'string' &&
                String(answer.headers['content-type']).startsWith('application/json'));
            if (![401, 404].includes(answer.status) || !jsonError)
              failures.push(`${method} ${path} → ${answer.status} ${answer.text.slice(0, 60)}`);
          }
        }
      }
    }
    assert.ok(tried > 1000, `only ${tried} requests`);
    assert.deepEqual(failures, []);
  });

  it('the plain path with the key works (positive control)', async () => {
    const key = { authorization: `Bearer ${daemon.key}` };
    assert.equal((await send('GET', '/api/subscriptions', key)).status, 200);
    assert.equal((await send('HEAD', '/api/subscriptions', key)).status, 200);
    assert.equal((await send('GET', '/api/sessions', key)).status, 200);
  });

  it('public: health and the console; no spelling of /api reaches the console page', async () => {
    assert.equal((await send('GET', '/api/health', {})).status, 200);
    const page = await send('GET', '/', {});
    assert.equal(page.status, 200);
    assert.match(page.text, /<title>console/);
    assert.equal((await send('GET', '/sessions/ses_1', {})).status, 200);
    for (const path of [
      ...spellings('/api/health'),
      ...spellings('/api/nothing-here'),
      '/%2561pi/subscriptions',
      '/api',
      '/API',
    ]) {
      const answer = await send('GET', path, {});
      assert.ok(!answer.text.includes('<title>console'), `${path} served the console page`);
      assert.ok(
        typeof (answer.body as { error_code?: unknown })?.error_code === 'string' ||
          (decodeURIComponent(path).toLowerCase().includes('health') && answer.status === 200),
        `${path} → ${answer.status} ${answer.text.slice(0, 60)}`,
      );
    }
  });

  it('malformed or hostile encodings answer JSON 400/404, never a 500 or a file', async () => {
    for (const path of [
      '/%',
      '/%zz',
      '/%E0%A4%A',
      '/api/%E0%A4%A',
      '/%61pi/%',
      '/sessions/%ff',
      '/%C0%AF',
      '/foo%00bar',
      '/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
      '/..%2f..%2f..%2fetc%2fpasswd',
      '/api/sessions/%',
      '/main.js%00.html',
    ]) {
      const answer = await send('GET', path, {});
      assert.ok([400, 404].includes(answer.status), `${path} → ${answer.status}`);
      assert.equal(typeof (answer.body as { error_code?: unknown }).error_code, 'string', path);
      assert.ok(!answer.text.includes('root:'), path);
    }
  });
});
