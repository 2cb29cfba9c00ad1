import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadOrCreateApiKey, writeDaemonRecord } from './data-home.js';
import { SCHEMA } from '../schema.js';

describe('data folder', () => {
  it('creates a 256-bit key in a 0600 file once, then keeps it', () => {
    const home = mkdtempSync(join(tmpdir(), 'relais-home-'));
    const key = loadOrCreateApiKey(home);
    assert.ok(Buffer.from(key, 'base64url').length >= 16, 'at least 128 bits');
    assert.equal(statSync(join(home, 'api-key')).mode & 0o777, 0o600);
    assert.equal(loadOrCreateApiKey(home), key);
    assert.deepEqual(readdirSync(home), ['api-key'], 'no temporary file is left behind');
  });

  it('two homes never share a key', () => {
    const a = loadOrCreateApiKey(mkdtempSync(join(tmpdir(), 'relais-home-')));
    const b = loadOrCreateApiKey(mkdtempSync(join(tmpdir(), 'relais-home-')));
    assert.notEqual(a, b);
  });

  it('writes daemon.json for the other tools of the machine', () => {
    const home = mkdtempSync(join(tmpdir(), 'relais-home-'));
    writeDaemonRecord(home, { pid: 1, port: 2, base_url: 'http://127.0.0.1:2', started_at: 'now' });
    assert.equal(JSON.parse(readFileSync(join(home, 'daemon.json'), 'utf8')).port, 2);
  });
});

describe('database file', () => {
  it('is created readable by its owner only, and so is its write-ahead log', async () => {
    const { openDatabase } = await import('../db/database.js');
    const home = mkdtempSync(join(tmpdir(), 'relais-home-'));
    const db = openDatabase(join(home, 'relais.db'), SCHEMA);
    db.exec('CREATE TABLE t (a)');
    for (const file of ['relais.db', 'relais.db-wal']) {
      assert.equal(statSync(join(home, file)).mode & 0o777, 0o600, file);
    }
    db.close();
  });
});
