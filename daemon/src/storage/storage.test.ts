import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { StorageReport } from '../../../contract/operations.js';
import { startTestDaemon, type TestDaemon } from '../testing/harness.js';
import { SessionDriver } from '../testing/session-driver.js';
import { categoryOf } from './storage-report.js';
import { workdir } from '../testing/fixtures.js';

const DAY = 24 * 3600 * 1000;

describe('storage that recycles itself', { timeout: 120_000 }, () => {
  let daemon: TestDaemon;
  const finished: string[] = [];

  /** A real conversation: a tool call allowed, a result, then stopped. */
  const conversation = async (): Promise<string> => {
    const s = await SessionDriver.launch(daemon, {
      cwd: workdir(),
      prompt: 'demo:bash touch a.txt',
    });
    await s.decide((await s.pendingPermission()).id, { decision: 'allow' });
    await s.waitResults(1);
    await daemon.call('POST', `/api/sessions/${s.id}/stop`);
    await s.waitState('ended');
    return s.id;
  };
  const pages = async (id: string): Promise<string[]> => [
    (await daemon.call('GET', `/api/sessions/${id}/events?after=0&limit=500`)).text,
    (await daemon.call('GET', `/api/sessions/${id}/events?limit=5`)).text,
    (await daemon.call('GET', `/api/sessions/${id}/events?before=8&limit=3`)).text,
    (await daemon.call('GET', `/api/sessions/${id}/events?after=4&limit=6`)).text,
  ];
  const endedDaysAgo = (id: string, days: number): void => {
    daemon.relais.db
      .prepare('UPDATE sessions SET ended_at = ? WHERE id = ?')
      .run(new Date(Date.now() - days * DAY).toISOString(), id);
  };
  const metricsOf = (id: string): number[] =>
    [
      'SELECT COUNT(*) AS n FROM turns WHERE session_id = ?',
      'SELECT COUNT(*) AS n FROM permission_requests WHERE session_id = ?',
    ].map((sql) => (daemon.relais.db.prepare(sql).get(id) as { n: number }).n);

  before(async () => {
    daemon = await startTestDaemon();
    finished.push(await conversation(), await conversation());
  });
  after(async () => {
    await daemon.close();
  });

  it('a compressed conversation reads back identically through the same events API', async () => {
    const id = finished[0]!;
    const hot = await pages(id);
    assert.ok(JSON.parse(hot[0]!).items.length > 10);
    const compressed = await daemon.call('POST', `/api/storage/conversations/${id}/compress`);
    assert.equal(compressed.status, 200);
    assert.equal(compressed.body.conversation, 'compressed');
    assert.ok(
      compressed.body.bytes < compressed.body.raw_bytes,
      'the archive is smaller than the text',
    );
    const count = daemon.relais.db
      .prepare('SELECT COUNT(*) AS n FROM events WHERE session_id = ?')
      .get(id) as { n: number };
    assert.equal(count.n, 0, 'the events left the hot table');
    assert.deepEqual(await pages(id), hot, 'same sequence numbers, same bytes');
  });

  it('the recycling job compresses after 7 days and deletes after 90; metrics stay', async () => {
    const [a, b] = finished as [string, string];
    const metricsBefore = [metricsOf(a), metricsOf(b)];
    assert.ok(metricsBefore[1]![1]! >= 1, 'the conversation has a permission request on record');
    endedDaysAgo(b, 8);
    endedDaysAgo(a, 91);
    const ran = await daemon.call('POST', '/api/storage/recycle');
    assert.deepEqual([ran.body.compressed, ran.body.deleted], [1, 1]);
    const deleted = (await daemon.call('GET', `/api/sessions/${a}/events`)).body;
    assert.deepEqual(deleted.items, []);
    assert.equal(
      (await daemon.call('GET', `/api/sessions/${a}`)).status,
      200,
      'the session itself stays',
    );
    assert.deepEqual(
      [metricsOf(a), metricsOf(b)],
      metricsBefore,
      'metrics survive compression and deletion',
    );
    const report = (await daemon.call<StorageReport>('GET', '/api/storage')).body;
    assert.equal(report.conversations.find((c) => c.session_id === b)?.conversation, 'compressed');
    assert.equal(
      report.conversations.find((c) => c.session_id === a),
      undefined,
    );
  });

  it('sizes add up, by category and by subscription', async () => {
    await conversation();
    const report = (await daemon.call<StorageReport>('GET', '/api/storage?limit=500')).body;
    const sum = report.categories.reduce((total, c) => total + c.bytes, 0);
    assert.equal(sum, report.total_bytes);
    assert.ok(report.categories.find((c) => c.category === 'events')!.bytes > 0);
    assert.ok(report.files.database_bytes > 0);
    const demo = report.by_subscription.find((s) => s.subscription_id === 'demo')!;
    assert.equal(
      demo.bytes,
      report.conversations
        .filter((c) => c.subscription_id === 'demo')
        .reduce((t, c) => t + c.bytes, 0),
    );
    assert.ok(report.recycling.next_run_at);
    assert.equal(report.recycling.compress_after_days, 7);
  });

  it('a running conversation cannot be compressed or deleted', async () => {
    const s = await SessionDriver.launch(daemon, {
      cwd: workdir(),
    });
    const refused = await daemon.call('POST', `/api/storage/conversations/${s.id}/compress`);
    assert.equal(refused.status, 409);
    assert.equal((await daemon.call('DELETE', `/api/storage/conversations/${s.id}`)).status, 409);
    assert.equal(
      (await daemon.call('DELETE', '/api/storage/conversations/ses_missing')).status,
      404,
    );
    await daemon.call('POST', `/api/sessions/${s.id}/stop`);
  });
});

describe('storage categories', () => {
  it('every table of the database falls in its category', () => {
    const expected: Record<string, string> = {
      events: 'events',
      sqlite_autoindex_events_1: 'events',
      events_by_session: 'events',
      event_archives: 'archives',
      turns: 'metrics',
      tool_calls_by_tool_time: 'metrics',
      usage_rollup: 'metrics',
      sqlite_autoindex_usage_sessions_1: 'metrics',
      usage_tool_rollup: 'metrics',
      quota_windows: 'metrics',
      audit_by_time: 'audit',
      logs_by_session: 'logs',
      sessions: 'sessions',
      permission_requests: 'sessions',
      sqlite_schema: 'overhead',
    };
    for (const [name, category] of Object.entries(expected))
      assert.equal(categoryOf(name), category, name);
  });
});
