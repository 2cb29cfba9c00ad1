import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startTestDaemon, type TestDaemon } from '../testing/harness.js';
import { acceptedEncodings, allows } from './precompressed.js';

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: Buffer;
}

/** A GET that keeps the body as bytes, as they came over the wire. */
function get(base: string, path: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            bytes: Buffer.concat(chunks),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

function decode(answer: RawAnswer): string {
  const coding = answer.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(answer.bytes).toString('utf8');
  if (coding === 'gzip') return gunzipSync(answer.bytes).toString('utf8');
  assert.equal(coding, undefined, `unexpected coding ${String(coding)}`);
  return answer.bytes.toString('utf8');
}

const SCRIPT = `export const words = [${Array.from({ length: 4000 }, (_, i) => `"word ${i % 37}"`).join(',')}];\n`;
const PAGE = `<!doctype html><html><body>${'<app-root></app-root>'.repeat(100)}</body></html>`;

describe('compression', { timeout: 60_000 }, () => {
  let daemon: TestDaemon;
  let consoleDir: string;

  before(async () => {
    consoleDir = mkdtempSync(join(tmpdir(), 'relais-console-'));
    writeFileSync(join(consoleDir, 'index.html'), PAGE);
    writeFileSync(join(consoleDir, 'main-ABCD1234.js'), SCRIPT);
    writeFileSync(join(consoleDir, 'plain.js'), SCRIPT);
    writeFileSync(join(consoleDir, 'tiny-WXYZ5678.js'), 'export {};\n');
    writeFileSync(join(consoleDir, 'chunk-Ab_d-12x.js'), 'export {};\n');
    writeFileSync(join(consoleDir, 'warm-up-abcdefgh.js'), 'export {};\n');
    execFileSync(process.execPath, [join(process.cwd(), 'scripts/precompress.mjs'), consoleDir]);
    daemon = await startTestDaemon({ config: { consoleDir } });
  });
  after(async () => {
    await daemon.close();
    rmSync(consoleDir, { recursive: true, force: true });
  });

  it('the build step writes brotli and gzip twins that decode to the file, and skips tiny files', () => {
    const file = join(consoleDir, 'main-ABCD1234.js');
    assert.equal(brotliDecompressSync(readFileSync(file + '.br')).toString(), SCRIPT);
    assert.equal(gunzipSync(readFileSync(file + '.gz')).toString(), SCRIPT);
    assert.equal(existsSync(join(consoleDir, 'tiny-WXYZ5678.js.br')), false);
  });

  it('a hashed script goes as brotli, else gzip, else as is; always with Vary and long caching', async () => {
    for (const [accept, coding] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip;q=0.5', 'gzip'],
      ['*', 'br'],
      ['identity', undefined],
      ['', undefined],
      ['br;q=0, gzip;q=0', undefined],
    ] as const) {
      const answer = await get(daemon.base, '/main-ABCD1234.js', { 'accept-encoding': accept });
      assert.equal(answer.status, 200);
      assert.equal(answer.headers['content-encoding'], coding, `Accept-Encoding: ${accept}`);
      assert.equal(answer.headers['vary'], 'Accept-Encoding');
      assert.equal(answer.headers['content-type'], 'text/javascript; charset=utf-8');
      assert.equal(answer.headers['cache-control'], 'public, max-age=31536000, immutable');
      assert.equal(answer.headers['x-content-type-options'], 'nosniff');
      assert.equal(Number(answer.headers['content-length']), answer.bytes.length);
      assert.equal(decode(answer), SCRIPT);
      if (coding) assert.ok(answer.bytes.length < SCRIPT.length / 5, `${coding} is not smaller`);
    }
  });

  it("the chunk optimizer's base64url hashes count as hashes; a public file's name does not", async () => {
    const chunk = await get(daemon.base, '/chunk-Ab_d-12x.js', {});
    assert.equal(chunk.headers['cache-control'], 'public, max-age=31536000, immutable');
    const named = await get(daemon.base, '/warm-up-abcdefgh.js', {});
    assert.equal(named.headers['cache-control'], 'no-cache');
  });

  it('index.html and unhashed files are revalidated (no-cache), compressed, with a working ETag', async () => {
    for (const path of ['/', '/sessions/ses_1', '/plain.js']) {
      const answer = await get(daemon.base, path, { 'accept-encoding': 'br' });
      assert.equal(answer.headers['cache-control'], 'no-cache', path);
      assert.equal(answer.headers['content-encoding'], 'br', path);
      assert.equal(decode(answer), path === '/plain.js' ? SCRIPT : PAGE);
      assert.ok(answer.headers['content-security-policy'], path);
      const etag = String(answer.headers['etag']);
      const again = await get(daemon.base, path, {
        'accept-encoding': 'br',
        'if-none-match': etag,
      });
      assert.equal(again.status, 304, path);
      assert.equal(again.bytes.length, 0);
      const other = await get(daemon.base, path, {
        'accept-encoding': 'gzip',
        'if-none-match': etag,
      });
      assert.equal(other.status, 200, 'another coding is another representation');
    }
  });

  it('a twin older than its file (a stale build) is never served', async () => {
    const file = join(consoleDir, 'plain.js');
    const changed = SCRIPT.replace('word 1"', 'word one"');
    writeFileSync(file, changed);
    const later = new Date(Date.now() + 5000);
    utimesSync(file, later, later);
    const answer = await get(daemon.base, '/plain.js', { 'accept-encoding': 'br, gzip' });
    assert.equal(answer.headers['content-encoding'], undefined);
    assert.equal(decode(answer), changed);
  });

  it('large JSON answers are compressed on the fly and decode to the same JSON; small ones are not', async () => {
    const auth = { authorization: `Bearer ${daemon.key}` };
    const plain = await get(daemon.base, '/api/openapi.json', { ...auth });
    assert.equal(plain.headers['content-encoding'], undefined);
    for (const coding of ['br', 'gzip']) {
      const answer = await get(daemon.base, '/api/openapi.json', {
        ...auth,
        'accept-encoding': coding,
      });
      assert.equal(answer.status, 200);
      assert.equal(answer.headers['content-encoding'], coding);
      assert.match(String(answer.headers['vary']), /accept-encoding/i);
      assert.deepEqual(JSON.parse(decode(answer)), JSON.parse(plain.bytes.toString()));
      assert.ok(answer.bytes.length < plain.bytes.length / 3);
    }
    const small = await get(daemon.base, '/api/health', { 'accept-encoding': 'br' });
    assert.equal(small.status, 200);
    assert.equal(small.headers['content-encoding'], undefined);
    const refused = await get(daemon.base, '/api/sessions', { 'accept-encoding': 'br' });
    assert.equal(refused.status, 401);
  });

  it('a live stream is never compressed: its first line arrives at once, as text', async () => {
    const controller = new AbortController();
    const response = await fetch(`${daemon.base}/api/stream`, {
      headers: { authorization: `Bearer ${daemon.key}`, 'accept-encoding': 'br, gzip' },
      signal: controller.signal,
    });
    assert.equal(response.headers.get('content-encoding'), null);
    assert.match(response.headers.get('content-type') ?? '', /application\/x-ndjson/);
    const reader = response.body!.getReader();
    const first = await reader.read();
    assert.match(new TextDecoder().decode(first.value), /^\{"type":/);
    controller.abort();
  });
});

describe('Accept-Encoding', () => {
  it('reads names and weights, case-insensitively, and ignores what is malformed', () => {
    const weights = acceptedEncodings('GZIP;q=0.5, br;q=0, x;;q=2, ;q=1, *;q=0.1, deflate;q=1.5');
    assert.equal(weights.get('gzip'), 0.5);
    assert.equal(weights.get('br'), 0);
    assert.equal(allows(weights, 'br'), false);
    assert.equal(allows(weights, 'gzip'), true);
    assert.equal(allows(weights, 'zstd'), true, 'through *');
    assert.equal(allows(acceptedEncodings(undefined), 'gzip'), false);
    assert.equal(allows(acceptedEncodings('br;q=0.000'), 'br'), false);
  });
});
