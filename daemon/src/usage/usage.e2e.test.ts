import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { SessionEvent } from '../../../contract/api.js';
import type { AnalyticsSummary } from '../../../contract/usage.js';
import type { PermissionPolicy } from '../agents/permission-policy.js';
import { startTestDaemon, waitFor, type TestDaemon } from '../testing/harness.js';
import { SessionDriver } from '../testing/session-driver.js';
import { percentile } from './stats.js';
import { workdir } from '../testing/fixtures.js';

// `echo step` commands pass by policy; anything else asks a person.
const policy: PermissionPolicy = (r) =>
  String(r.input['command'] ?? '').includes('echo step')
    ? { decision: 'allow', step: 'test', rule: 'echo', reason: 'test rule' }
    : { decision: 'ask', step: 'default', rule: null, reason: 'ask' };

const SONNET = { input: 3, output: 15, cache_write: 3.75, cache_read: 0.3 };

interface RawTurn {
  session: string;
  durationMs: number;
  usage: Record<string, number>;
  messageIds: Set<string>;
  isError: boolean;
  model: string;
}

/** Rebuilds the turns from the recorded events alone, without the daemon's code. */
function rawTurns(session: string, events: SessionEvent[], model: string): RawTurn[] {
  const turns: RawTurn[] = [];
  let start: number | null = null;
  let ids = new Set<string>();
  for (const e of events) {
    const d = e.data as Record<string, any>;
    if (e.source === 'host' && d['type'] === 'user') {
      start = e.received_at_ms;
      ids = new Set();
    }
    if (
      e.source === 'agent' &&
      d['type'] === 'assistant' &&
      d['message']['model'] !== '<synthetic>'
    )
      ids.add(d['message']['id']);
    if (e.source === 'agent' && d['type'] === 'result') {
      turns.push({
        session,
        durationMs: e.received_at_ms - start!,
        usage: d['usage'],
        messageIds: ids,
        isError: d['is_error'],
        model,
      });
      start = null;
    }
  }
  return turns;
}

describe('usage counted on ingest from real Claude Code sessions', { timeout: 240_000 }, () => {
  let daemon: TestDaemon;
  const raw: RawTurn[] = [];

  before(async () => {
    daemon = await startTestDaemon({ policy });
    const a = await SessionDriver.launch(daemon, {
      cwd: workdir(),
      model: 'claude-sonnet-4-5',
      app: 'app-a',
      prompt: 'demo:bash touch x',
    });
    await a.decide((await a.pendingPermission()).id, { decision: 'allow' });
    await a.waitResults(1);
    await a.waitState('idle');
    await daemon.call('POST', `/api/sessions/${a.id}/messages`, { text: 'hello, "world"' });
    await a.waitResults(2);
    const b = await SessionDriver.launch(daemon, {
      cwd: workdir(),
      model: 'demo-sonnet',
      app: 'app-b',
      prompt: 'demo:steps 2',
    });
    await b.waitResults(1);
    const c = await SessionDriver.launch(daemon, {
      cwd: workdir(),
      model: 'claude-sonnet-4-5',
      app: 'app-b',
      prompt: 'demo:bash touch y',
    });
    await c.decide((await c.pendingPermission()).id, { decision: 'deny', message: 'no' });
    await c.waitResults(1);
    const d = await SessionDriver.launch(daemon, {
      cwd: workdir(),
      model: 'claude-sonnet-4-5',
      app: 'app-a',
      prompt: 'demo:error 500',
    });
    await d.waitResults(1);
    for (const [s, model] of [
      [a, 'claude-sonnet-4-5'],
      [b, 'demo-sonnet'],
      [c, 'claude-sonnet-4-5'],
      [d, 'claude-sonnet-4-5'],
    ] as const) {
      raw.push(...rawTurns(s.id, await s.events(), model));
    }
    await waitFor(
      'turn rows',
      () =>
        (daemon.relais.db.prepare('SELECT COUNT(*) AS n FROM turns').get() as { n: number }).n >=
          5 || undefined,
    );
  });
  after(async () => {
    await daemon.close();
  });

  it("one turn row per result, with the demo model's deterministic usage and model calls counted once", () => {
    const rows = daemon.relais.db.prepare('SELECT * FROM turns ORDER BY id').all() as Record<
      string,
      any
    >[];
    assert.equal(rows.length, 5);
    assert.equal(raw.length, 5);
    // demo: input = 100 + 10 × step per request, cache read 50, cache creation 20.
    const expected = [
      { calls: 2, input: 210, cacheRead: 100, cacheCreation: 40 }, // bash: step 0 + step 1
      { calls: 1, input: 100, cacheRead: 50, cacheCreation: 20 }, // plain text
      { calls: 3, input: 330, cacheRead: 150, cacheCreation: 60 }, // steps 2
      { calls: 2, input: 210, cacheRead: 100, cacheCreation: 40 }, // bash denied
    ];
    expected.forEach((e, i) => {
      const row = rows[i]!;
      assert.equal(row['model_calls'], e.calls, `turn ${i} model calls`);
      assert.equal(row['input_tokens'], e.input, `turn ${i} input`);
      assert.equal(row['cache_read_tokens'], e.cacheRead);
      assert.equal(row['cache_creation_tokens'], e.cacheCreation);
      assert.equal(row['model_calls'], raw[i]!.messageIds.size);
      assert.equal(row['output_tokens'], raw[i]!.usage['output_tokens']);
      assert.equal(row['is_error'], 0);
      assert.equal(
        row['reasoning_tokens'],
        null,
        'Claude does not report reasoning tokens: unknown',
      );
    });
    assert.equal(rows[4]!['is_error'], 1);
    assert.equal(rows[4]!['error_kind'], 'api_error');
    assert.equal(
      rows[2]!['cost_usd'],
      null,
      'demo-sonnet is not in the price table: unknown, not 0',
    );
    const u = raw[0]!.usage;
    const cost =
      (u['input_tokens']! * SONNET.input +
        u['output_tokens']! * SONNET.output +
        u['cache_creation_input_tokens']! * SONNET.cache_write +
        u['cache_read_input_tokens']! * SONNET.cache_read) /
      1e6;
    assert.ok(Math.abs(rows[0]!['cost_usd'] - cost) < 1e-12);
  });

  it('tool calls paired by id with the permission decision that let them run or stopped them', () => {
    const calls = daemon.relais.db.prepare('SELECT * FROM tool_calls ORDER BY id').all() as Record<
      string,
      any
    >[];
    assert.deepEqual(
      calls.map((c) => [c['tool_name'], c['permission_decision'], c['is_error']]),
      [
        ['Bash', 'allowed', 0],
        ['Bash', 'auto_allowed', 0],
        ['Bash', 'auto_allowed', 0],
        ['Bash', 'denied', 1],
      ],
    );
    for (const c of calls) assert.equal(c['duration_ms'], c['ended_at_ms'] - c['started_at_ms']);
  });

  it('the summary matches figures computed independently from the raw events', async () => {
    const s = (await daemon.call<AnalyticsSummary>('GET', '/api/analytics/summary')).body;
    const sum = (k: string): number => raw.reduce((acc, t) => acc + (t.usage[k] ?? 0), 0);
    assert.equal(s.turns, 5);
    assert.equal(s.sessions, 4);
    assert.deepEqual(s.tokens, {
      input: sum('input_tokens'),
      output: sum('output_tokens'),
      cache_read: sum('cache_read_input_tokens'),
      cache_creation: sum('cache_creation_input_tokens'),
    });
    const durations = raw.map((t) => t.durationMs);
    assert.equal(s.duration.median_ms, percentile(durations, 50));
    assert.equal(s.duration.p95_ms, percentile(durations, 95));
    const all =
      sum('input_tokens') + sum('cache_read_input_tokens') + sum('cache_creation_input_tokens');
    assert.equal(s.cache_hit_rate, sum('cache_read_input_tokens') / all);
    assert.equal(s.cost.unknown_cost_turns, 1);
    assert.equal(s.errors.count, 1);
    assert.equal(s.errors.rate, 1 / 5);
    assert.equal(s.tools[0]!.tool_name, 'Bash');
    assert.equal(s.tools[0]!.calls, 4);
    assert.equal(s.tools[0]!.denied, 1);
  });

  it('filters combine', async () => {
    const get = async (q: string): Promise<AnalyticsSummary> =>
      (await daemon.call<AnalyticsSummary>('GET', `/api/analytics/summary?${q}`)).body;
    assert.equal((await get('model=demo-sonnet')).turns, 1);
    assert.equal((await get('tool=Bash')).turns, 3);
    assert.equal((await get('tool=Bash&app=app-b')).turns, 2);
    assert.equal((await get('app=app-a&error=no')).turns, 2);
    assert.equal((await get('error=yes')).turns, 1);
    assert.equal(
      (await get('subscription=demo&agent=claude&model=claude-sonnet-4-5,demo-sonnet')).turns,
      5,
    );
    assert.equal((await get(`from=${new Date(Date.now() + 60_000).toISOString()}`)).turns, 0);
    const bad = await daemon.call('GET', '/api/analytics/summary?error=maybe');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error_code, 'invalid_request');
    const period = await daemon.call(
      'GET',
      '/api/analytics/summary?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z',
    );
    assert.equal(period.status, 400);
    assert.match(period.body.message, /from must be earlier than to/);
  });
});
