import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { PermissionAsk } from '../agents/agent.js';
import { openDatabase } from '../db/database.js';
import { EventStore } from '../events/event-store.js';
import { ApiError } from '../http/errors.js';
import { GlobalHub } from '../events/global-hub.js';
import { AuditLog } from './audit-log.js';
import { PermissionBroker, type AskContext, type PermissionAnswer } from './permission-broker.js';
import { PermissionRepo } from './permission-repo.js';
import type { PolicyDecision } from '../agents/permission-policy.js';
import { AllowedHosts } from './allowed-hosts.js';
import { SCHEMA } from '../schema.js';
import { SessionMarksRepo } from '../sessions/session-marks-repo.js';

/** The real broker on a real database, with a policy the test sets (the engine asks by default). */
function setUp(dir: string) {
  const db = openDatabase(join(dir, 'relais.db'), SCHEMA);
  const repo = new PermissionRepo(db);
  const allowedHosts = new AllowedHosts(db);
  let verdict: PolicyDecision = { decision: 'ask', step: 'default', rule: null, reason: 'new' };
  const events = new EventStore(db, new SessionMarksRepo(db));
  const broker = new PermissionBroker({
    repo,
    events,
    hub: new GlobalHub(),
    audit: new AuditLog(db),
    policy: () => () => verdict,
    timeoutMs: 60_000,
    someoneListening: () => true,
    allowedHosts,
  });
  const answers: PermissionAnswer[] = [];
  const context = (sessionId: string): AskContext => ({
    sessionId,
    subscriptionId: 'demo',
    cwd: dir,
    permissionMode: 'write',
    mcpTools: [],
    answer: (answer) => answers.push(answer),
    onPendingChange: () => undefined,
  });
  const ask = (sessionId: string, over: Partial<PermissionAsk>): string | null => {
    broker.open(
      {
        requestId: 'network-1',
        toolName: 'Network',
        toolUseId: null,
        input: { host: 'api.example.org', port: 443 },
        description: null,
        blockedPath: null,
        ...over,
      },
      context(sessionId),
    );
    return repo.pendingIds(sessionId)[0] ?? null;
  };
  const setVerdict = (next: PolicyDecision): void => void (verdict = next);
  return { db, events, broker, allowedHosts, answers, ask, setVerdict };
}

function refusedWith400(run: () => unknown): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof ApiError);
    assert.equal(error.status, 400);
    assert.equal(error.code, 'scope_not_allowed');
    return true;
  });
}

describe('allowed hosts in the broker', () => {
  const dir = mkdtempSync(join(tmpdir(), 'relais-hosts-'));
  const t = setUp(dir);
  after(() => {
    t.events.flush();
    t.db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a "Network" request the gate did not raise, or with a host it would never ask, cannot be remembered', () => {
    const forged = t.ask('s1a', { requestId: 'toolu_forged' });
    assert.ok(forged);
    refusedWith400(() => t.broker.decide(forged, { decision: 'allow', scope: 'always' }));
    const wild = t.ask('s1b', { requestId: 'network-2', input: { host: '*', port: 443 } });
    assert.ok(wild);
    refusedWith400(() => t.broker.decide(wild, { decision: 'allow', scope: 'always' }));
    const noPort = t.ask('s1c', { requestId: 'network-3', input: { host: 'a.org', port: '443' } });
    assert.ok(noPort);
    refusedWith400(() => t.broker.decide(noPort, { decision: 'allow', scope: 'always' }));
    assert.deepEqual(t.allowedHosts.list(), []);
    // Still pending: another answer is taken.
    for (const id of [forged, wild, noPort]) t.broker.decide(id, { decision: 'deny' });
  });

  it('allowed always: the same host and port pass in another session, another port still asks', () => {
    const first = t.ask('s2', {});
    assert.ok(first);
    t.broker.decide(first, { decision: 'allow', scope: 'always' }, 'terminal');
    assert.deepEqual(
      t.allowedHosts.list().map((h) => [h.host, h.port, h.decided_by]),
      [['api.example.org', 443, 'terminal']],
    );
    assert.equal(t.ask('s3', { requestId: 'network-4' }), null);
    assert.equal(t.answers.at(-1)?.behavior, 'allow');
    const otherPort = t.ask('s3', {
      requestId: 'network-5',
      input: { host: 'api.example.org', port: 22 },
    });
    assert.ok(otherPort);
    t.broker.decide(otherPort, { decision: 'deny' });
  });

  it("the engine's deny still wins over a host allowed always", () => {
    t.setVerdict({ decision: 'deny', step: 'mode', rule: null, reason: 'read-only session' });
    assert.equal(t.ask('s4', { requestId: 'network-6' }), null);
    assert.equal(t.answers.at(-1)?.behavior, 'deny');
  });
});
