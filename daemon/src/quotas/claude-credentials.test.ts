import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { linkSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readClaudeOAuth } from './claude-credentials.js';
import { readOAuthToken } from './quota-poller.js';
import { readClaudePlan } from './priors.js';

const LOGIN = JSON.stringify({ claudeAiOauth: { accessToken: 'tok-1', subscriptionType: 'pro' } });
const folder = (): string => mkdtempSync(join(tmpdir(), 'relais-cred-'));

describe("a Claude login's credentials file, read from a folder the agent can write", () => {
  it('reads a plain file', () => {
    const dir = folder();
    writeFileSync(join(dir, '.credentials.json'), LOGIN);
    assert.equal(readOAuthToken(dir), 'tok-1');
    assert.equal(readClaudePlan(dir), 'pro');
  });

  it('follows no link and no second name planted in its place', () => {
    const elsewhere = join(folder(), 'other-login.json');
    writeFileSync(elsewhere, LOGIN);
    const linked = folder();
    symlinkSync(elsewhere, join(linked, '.credentials.json'));
    assert.equal(readOAuthToken(linked), null);
    const hardLinked = folder();
    linkSync(elsewhere, join(hardLinked, '.credentials.json'));
    assert.equal(readOAuthToken(hardLinked), null);
    assert.equal(readClaudePlan(hardLinked), 'unknown');
  });

  it('does not wait on a FIFO or read a folder in its place', () => {
    const withFifo = folder();
    execFileSync('mkfifo', [join(withFifo, '.credentials.json')]);
    const started = Date.now();
    assert.equal(readClaudeOAuth(withFifo), null);
    assert.ok(Date.now() - started < 1000);
    assert.equal(readClaudePlan(withFifo), 'unknown');
  });
});
