import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { startDaemonProcess, type DaemonProcess } from '../testing/daemon-process.js';
import { rawRequest, waitFor } from '../testing/harness.js';
import { isSecretName, redactUrl } from './redact.js';

describe('no secret sent in a URL reaches a log', { timeout: 90_000 }, () => {
  let home: string;
  let daemon: DaemonProcess;
  const secrets = ['tok-SECRET-1', 'apikey-SECRET-2', 'pw-SECRET-3', 'auth-SECRET-4', 'x-SECRET-5'];

  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'relais-redact-'));
    daemon = await startDaemonProcess(home, { RELAIS_LOG_LEVEL: 'debug' });
  });
  after(async () => {
    await daemon.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it('redacts secret-named query values and the key in stdout, the logs table and GET /api/logs', async () => {
    const { key, base } = daemon;
    const encodedKey = `%${key.charCodeAt(0).toString(16)}${key.slice(1)}`;
    const paths = [
      `/api/sessions?key=${key}`,
      `/api/health?token=${secrets[0]}&API_KEY=${secrets[1]}&Password=${secrets[2]}`,
      `/api/health?authorization=${secrets[3]}&access-token=${secrets[4]}&state=plain-visible`,
      `/api/health?note=${encodedKey}`,
      `/api/health?${key}`,
      `/api/${key}`,
      `/%61pi/sessions/${encodedKey}?q=${key}`,
      `/api/%zz?key=${key}`,
    ];
    for (const path of paths) await rawRequest(base, 'GET', path, undefined, {});
    await rawRequest(base, 'GET', `/api/health?done=marker-redaction-test`, undefined, {});
    const logLines = (): string[] =>
      daemon
        .output()
        .stdout.split('\n')
        .filter((line) => line.startsWith('{'));
    await waitFor('the last request in the log', () =>
      logLines().some((line) => line.includes('marker-redaction-test')),
    );

    const stdout = logLines().join('\n');
    assert.match(stdout, /\[REDACTED\]/);
    assert.match(stdout, /state=plain-visible/, 'ordinary parameters stay readable');

    const db = new Database(join(home, 'relais.db'), { readonly: true, fileMustExist: true });
    const stored = await waitFor('the log ring', () => {
      const rows = db.prepare('SELECT line FROM logs').all() as { line: string }[];
      const text = rows.map((row) => row.line).join('\n');
      return text.includes('marker-redaction-test') ? text : undefined;
    });
    db.close();
    assert.match(stored, /\[REDACTED\]/);

    const api = await daemon.call('GET', '/api/logs?limit=500');
    assert.equal(api.status, 200);
    assert.match(api.text, /\[REDACTED\]/);

    for (const [where, text] of [
      ['stdout', stdout],
      ['logs table', stored],
      ['GET /api/logs', api.text],
    ] as const) {
      for (const secret of [key, encodedKey, ...secrets])
        assert.ok(!text.includes(secret), `${where} holds ${secret.slice(0, 12)}…`);
    }
  });

  it('knows secret names, and leaves other URLs alone', () => {
    for (const name of ['key', 'api_key', 'apiKey', 'TOKEN', 'access_token', 'password', 'secret'])
      assert.equal(isSecretName(name), true, name);
    for (const name of ['auth', 'Authorization', 'client_secret', 'x-api-key', 'passwd'])
      assert.equal(isSecretName(name), true, name);
    for (const name of ['session', 'state', 'limit', 'after', 'q', 'by', 'format', 'monkeys'])
      assert.equal(isSecretName(name), false, name);
    assert.equal(redactUrl('/api/logs?session=s1&q=x', 'k'.repeat(43)), '/api/logs?session=s1&q=x');
    assert.equal(redactUrl('/api/x?token=a&b=c', 'KEY'), '/api/x?token=[REDACTED]&b=c');
  });
});
