import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AnalyticsSummary } from '../../../contract/usage.js';
import type { PermissionPolicy } from '../agents/permission-policy.js';
import { rawRequest, startTestDaemon, waitFor, type TestDaemon } from '../testing/harness.js';
import { SessionDriver } from '../testing/session-driver.js';
import {
  promtoolCheck,
  requireBinary,
  startPrometheus,
  type PrometheusServer,
} from '../testing/prometheus-server.js';
import { workdir } from '../testing/fixtures.js';

// `echo step` commands pass by a rule; anything else asks a person.
const policy: PermissionPolicy = (r) =>
  String(r.input['command'] ?? '').includes('echo step')
    ? { decision: 'allow', step: 'test', rule: 'echo', reason: 'test rule' }
    : { decision: 'ask', step: 'default', rule: null, reason: 'ask' };

/** Turns, tool calls and decisions of several apps and models, one prompt allowed, one refused. */
async function runDemoSessions(daemon: TestDaemon): Promise<string> {
  const a = await SessionDriver.launch(daemon, {
    cwd: workdir(),
    model: 'claude-sonnet-4-5',
    app: 'app-a',
    prompt: 'demo:bash touch x',
  });
  await a.decide((await a.pendingPermission()).id, { decision: 'allow' });
  await a.waitResults(1);
  await a.waitState('idle');
  await daemon.call('POST', `/api/sessions/${a.id}/messages`, { text: 'demo:bash rm y' });
  await a.decide((await a.pendingPermission()).id, { decision: 'deny' });
  await a.waitResults(2);
  const b = await SessionDriver.launch(daemon, {
    cwd: workdir(),
    app: 'app-b',
    prompt: 'demo:steps 2',
  });
  await b.waitResults(1);
  const refused = await daemon.call('POST', '/api/sessions', {
    subscription_id: 'no-such-subscription',
    model: 'demo-sonnet',
    cwd: workdir(),
  });
  assert.ok(refused.status >= 400, refused.text);
  return (refused.body as { error_code: string }).error_code;
}

const sum = async (prometheus: PrometheusServer, promql: string): Promise<number> => {
  const result = await prometheus.query(`sum(${promql})`);
  return result.length === 0 ? 0 : Number(result[0]!.value[1]);
};

describe('GET /metrics scraped by a real Prometheus', { timeout: 240_000 }, () => {
  let daemon: TestDaemon;
  let prometheus: PrometheusServer;
  let refusal: string;

  before(async () => {
    requireBinary('promtool');
    daemon = await startTestDaemon({ policy });
    refusal = await runDemoSessions(daemon);
    prometheus = await startPrometheus(new URL(daemon.base).host, daemon.key);
  });
  after(async () => {
    await prometheus?.stop();
    await daemon?.close();
  });

  it('needs the key', async () => {
    const bare = await rawRequest(daemon.base, 'GET', '/metrics', undefined, {});
    assert.equal(bare.status, 401);
    const wrong = await daemon.call('GET', '/metrics', undefined, { authorization: 'Bearer nope' });
    assert.equal(wrong.status, 401);
  });

  it("passes promtool's own checks, with bounded labels", async () => {
    const answer = await daemon.call('GET', '/metrics');
    assert.equal(answer.status, 200);
    assert.match(String(answer.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    const check = promtoolCheck(answer.text);
    assert.equal(check.status, 0, check.output);
    assert.match(answer.text, /^relais_turns_total\{/m);
    assert.match(answer.text, /^process_cpu_seconds_total /m);
    // No session id, path or free text as a label value.
    assert.doesNotMatch(answer.text, /sess_|\/tmp\/|relais-metrics-/);
  });

  it('answers the same figures as the analytics summary, through PromQL', async () => {
    const summary = (await daemon.call<AnalyticsSummary>('GET', '/api/analytics/summary')).body;
    assert.ok(summary.turns >= 3, `turns: ${summary.turns}`);
    await waitFor(
      'Prometheus to scrape the finished turns',
      async () => (await sum(prometheus, 'relais_turns_total')) === summary.turns,
    );
    const tokens = async (kind: string): Promise<number> =>
      sum(prometheus, `relais_tokens_total{kind="${kind}"}`);
    assert.equal(await tokens('input'), summary.tokens.input);
    assert.equal(await tokens('output'), summary.tokens.output);
    assert.equal(await tokens('cache_read'), summary.tokens.cache_read);
    assert.equal(await tokens('cache_write'), summary.tokens.cache_creation);
    assert.equal(await sum(prometheus, 'relais_turn_errors_total'), summary.errors.count);
    assert.equal(await sum(prometheus, 'relais_model_calls_total'), summary.model_calls);
    const cost = await sum(prometheus, 'relais_cost_usd_total');
    assert.ok(
      Math.abs(cost - summary.cost.estimate_usd) < 1e-9,
      `${cost} vs ${summary.cost.estimate_usd}`,
    );
    const tools = (field: 'calls' | 'errors' | 'denied'): number =>
      summary.tools.reduce((n, t) => n + t[field], 0);
    assert.equal(await sum(prometheus, 'relais_tool_calls_total'), tools('calls'));
    assert.equal(await sum(prometheus, 'relais_tool_errors_total'), tools('errors'));
    assert.equal(await sum(prometheus, 'relais_tool_calls_denied_total'), tools('denied'));
    assert.equal(tools('denied'), 1);
    // Per app too: the labels split the same totals the breakdown does.
    const byApp = await prometheus.query('sum by (app) (relais_turns_total)');
    const breakdown = (
      await daemon.call<{ items: { key: string; turns: number }[] }>(
        'GET',
        '/api/analytics/breakdown?by=app',
      )
    ).body.items;
    assert.deepEqual(
      Object.fromEntries(byApp.map((r) => [r.metric['app'], Number(r.value[1])])),
      Object.fromEntries(breakdown.map((r) => [r.key, r.turns])),
    );
  });

  it('counts the permission decisions of the audit trail, by outcome and who decided', async () => {
    const audit = (
      await daemon.call<{ items: { decision: string; decided_by: string }[] }>(
        'GET',
        '/api/audit?kind=decision&limit=500',
      )
    ).body.items;
    const expected = (decision: string, by: string): number =>
      audit.filter((e) => e.decision === decision && e.decided_by === by).length;
    assert.equal(expected('allow', 'console'), 1);
    assert.equal(expected('deny', 'console'), 1);
    for (const [decision, by] of [
      ['allow', 'console'],
      ['deny', 'console'],
      ['allow', 'rules'],
    ] as const)
      assert.equal(
        await sum(
          prometheus,
          `relais_permission_decisions_total{outcome="${decision}",decided_by="${by}"}`,
        ),
        expected(decision, by),
        `${decision} by ${by}`,
      );
    assert.equal(await sum(prometheus, 'relais_permission_decisions_total'), audit.length);
    assert.equal(await sum(prometheus, 'relais_permission_answer_seconds_count'), 2);
    assert.equal(await sum(prometheus, 'relais_permission_prompts_waiting'), 0);
    assert.equal(await sum(prometheus, 'relais_session_launches_total'), 2);
    assert.equal(await sum(prometheus, 'relais_turn_duration_seconds_count'), 3);
    assert.equal(
      await sum(prometheus, `relais_session_launch_refusals_total{error_code="${refusal}"}`),
      1,
    );
    assert.equal(await sum(prometheus, 'relais_session_launch_refusals_total'), 1);
  });

  it('measures the storage by category off the scrape, and the live sessions', async () => {
    await waitFor(
      'the storage measured',
      async () => (await sum(prometheus, 'relais_storage_bytes{category="events"}')) > 0,
    );
    assert.ok((await sum(prometheus, 'relais_storage_bytes{category="database_file"}')) > 0);
    assert.equal(await sum(prometheus, 'relais_sessions{state="idle"}'), 2);
    assert.ok((await sum(prometheus, 'relais_events_ingested_total{source="agent"}')) > 0);
  });
});
