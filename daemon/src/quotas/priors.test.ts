import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { priorRate, priorSessionUnits, readClaudePlan } from './priors.js';

const folderWith = (content: string | null): string => {
  const dir = mkdtempSync(join(tmpdir(), 'relais-plan-'));
  if (content !== null) writeFileSync(join(dir, '.credentials.json'), content);
  return dir;
};

describe('priors per agent and plan', () => {
  it("reads the plan from Claude Code's credentials; anything else is unknown", () => {
    const login = (oauth: object): string => folderWith(JSON.stringify({ claudeAiOauth: oauth }));
    assert.equal(
      readClaudePlan(login({ subscriptionType: 'max', rateLimitTier: 'default_claude_max_20x' })),
      'max_20x',
    );
    assert.equal(
      readClaudePlan(login({ subscriptionType: 'max', rateLimitTier: 'default_claude_max_5x' })),
      'max_5x',
    );
    assert.equal(readClaudePlan(login({ subscriptionType: 'pro' })), 'pro');
    assert.equal(readClaudePlan(login({ subscriptionType: 42 })), 'unknown');
    assert.equal(readClaudePlan(folderWith('{not json')), 'unknown');
    assert.equal(readClaudePlan(folderWith(null)), 'unknown');
    const padded = JSON.stringify({
      claudeAiOauth: { subscriptionType: 'pro' },
      pad: 'x'.repeat(70_000),
    });
    assert.equal(readClaudePlan(folderWith(padded)), 'unknown', 'an oversized file is not read');
    assert.equal(readClaudePlan('/nonexistent/\u0000odd'), 'unknown');
  });

  it('an unknown plan takes the dearest known prior; weekly windows are cheaper per unit', () => {
    assert.equal(
      priorRate('claude', 'unknown', 'five_hour'),
      priorRate('claude', 'pro', 'five_hour'),
    );
    assert.ok(
      priorRate('claude', 'max_20x', 'five_hour') < priorRate('claude', 'max_5x', 'five_hour'),
    );
    assert.ok(
      priorRate('claude', 'pro', 'seven_day_opus') < priorRate('claude', 'pro', 'five_hour'),
    );
    assert.equal(
      priorRate('claude', 'pro', 'iguana_necktie'),
      priorRate('claude', 'pro', 'five_hour'),
    );
    assert.equal(priorRate('codex', 'unknown', 'five_hour'), 0.05 / 1000);
    assert.equal(
      priorRate('someday', 'unknown', 'five_hour'),
      priorRate('claude', 'pro', 'five_hour'),
    );
    assert.equal(priorSessionUnits('claude', 'demo'), 400);
    assert.equal(priorSessionUnits('codex', 'demo'), 400, 'the Codex demo is a demo too');
  });
});
