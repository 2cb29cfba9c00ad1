import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { rawRequest, startTestDaemon, type TestDaemon } from '../testing/harness.js';

interface RawAnswer {
  status: number;
  contentType: string;
  body: { error_code?: unknown; message?: unknown } | undefined;
  text: string;
}

/** Writes bytes on a fresh TCP connection and reads the answer until the server closes it. */
function socketExchange(base: string, bytes: string): Promise<RawAnswer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error);
    });
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const content = rest.join('\r\n\r\n');
      let body: RawAnswer['body'];
      try {
        body = JSON.parse(content) as RawAnswer['body'];
      } catch {
        body = undefined;
      }
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0),
        contentType: /\r\ncontent-type: ([^\r]+)/i.exec(head)?.[1] ?? '',
        body,
        text,
      });
    });
    socket.write(bytes, 'latin1');
    setTimeout(() => socket.end(), 300);
  });
}

describe('every error body has an error_code', { timeout: 60_000 }, () => {
  let daemon: TestDaemon;
  let host: string;

  before(async () => {
    daemon = await startTestDaemon({ config: { bodyLimitBytes: 64 * 1024 } });
    host = new URL(daemon.base).host;
  });
  after(async () => {
    await daemon.close();
  });

  const keyed = (): string => `Authorization: Bearer ${daemon.key}\r\n`;

  const expectCode = (answer: RawAnswer, status: number, code: string, what: string): void => {
    assert.equal(answer.status, status, `${what}: ${answer.text.slice(0, 200)}`);
    assert.match(answer.contentType, /^application\/json/, what);
    assert.equal(answer.body?.error_code, code, `${what}: ${answer.text.slice(0, 200)}`);
    assert.equal(typeof answer.body?.message, 'string', what);
  };

  it('431: headers too large', async () => {
    const answer = await socketExchange(
      daemon.base,
      `GET /api/health HTTP/1.1\r\nHost: ${host}\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expectCode(answer, 431, 'headers_too_large', 'big header');
    const longUrl = await socketExchange(
      daemon.base,
      `GET /api/sessions?x=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: ${host}\r\n\r\n`,
    );
    expectCode(longUrl, 431, 'headers_too_large', 'long request line');
  });

  it('414: a path segment over the router limit', async () => {
    const answer = await rawRequest(
      daemon.base,
      'GET',
      `/api/sessions/${'s'.repeat(150)}`,
      undefined,
      {
        authorization: `Bearer ${daemon.key}`,
      },
    );
    assert.equal(answer.status, 414);
    assert.equal(answer.body.error_code, 'uri_too_long');
  });

  it("400: framing errors from Node's parser", async () => {
    const cases: [string, string][] = [
      ['malformed request line', 'GARBAGE\r\n\r\n'],
      ['bad HTTP version', `GET /api/health HTTP/9.9\r\nHost: ${host}\r\n\r\n`],
      [
        'content-length not a number',
        `POST /api/subscriptions HTTP/1.1\r\nHost: ${host}\r\n${keyed()}Content-Type: application/json\r\nContent-Length: abc\r\n\r\n{}`,
      ],
      [
        'two content-lengths',
        `POST /api/subscriptions HTTP/1.1\r\nHost: ${host}\r\n${keyed()}Content-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
      ],
      [
        'content-length with chunked',
        `POST /api/subscriptions HTTP/1.1\r\nHost: ${host}\r\n${keyed()}Content-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
      ],
      [
        'bad chunk size',
        `POST /api/subscriptions HTTP/1.1\r\nHost: ${host}\r\n${keyed()}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
      ],
      ['header without colon', `GET /api/health HTTP/1.1\r\nHost: ${host}\r\nNoColon\r\n\r\n`],
      ['space in the path', `GET /api/he alth HTTP/1.1\r\nHost: ${host}\r\n\r\n`],
    ];
    for (const [what, bytes] of cases) {
      expectCode(await socketExchange(daemon.base, bytes), 400, 'malformed_request', what);
    }
  });

  it('400: a path whose percent-encoding is malformed', async () => {
    for (const path of ['/api/%', '/api/sessions/%E0%A4%A', '/%zz']) {
      const answer = await rawRequest(daemon.base, 'GET', path, undefined, {});
      assert.equal(answer.status, 400, path);
      assert.equal(answer.body.error_code, 'malformed_request', path);
    }
  });

  it('400 bad JSON, bad content-length in Fastify, 413, 415, 404', async () => {
    const auth = { authorization: `Bearer ${daemon.key}`, 'content-type': 'application/json' };
    const cases: [string, string | undefined, Record<string, string>, number, string][] = [
      ['{"name": ', undefined, auth, 400, 'invalid_json'],
      ['', undefined, auth, 400, 'invalid_json'],
      [JSON.stringify({ name: 'x'.repeat(100_000) }), undefined, auth, 413, 'payload_too_large'],
      [
        'name=x',
        undefined,
        { ...auth, 'content-type': 'text/plain' },
        415,
        'unsupported_media_type',
      ],
      [
        '<a/>',
        undefined,
        { ...auth, 'content-type': 'application/xml' },
        415,
        'unsupported_media_type',
      ],
      ['{}', '/api/no-such-thing', auth, 404, 'route_not_found'],
    ];
    for (const [body, path, headers, status, code] of cases) {
      const answer = await rawRequest(
        daemon.base,
        'POST',
        path ?? '/api/subscriptions',
        body,
        headers,
      );
      assert.equal(answer.status, status, `${code}: ${answer.text.slice(0, 200)}`);
      assert.equal(answer.body.error_code, code, answer.text.slice(0, 200));
    }
    const declaredTooLong = await socketExchange(
      daemon.base,
      `POST /api/subscriptions HTTP/1.1\r\nHost: ${host}\r\n${keyed()}Content-Type: application/json\r\nContent-Length: 10\r\nConnection: close\r\n\r\n{}`,
    );
    assert.ok(declaredTooLong.status === 0 || declaredTooLong.body?.error_code, 'body cut short');
  });
});
