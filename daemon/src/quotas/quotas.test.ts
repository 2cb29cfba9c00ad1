import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { QuotasAnswer } from '../../../contract/usage.js';
import {
  defaultWindows,
  DEMO_QUOTA_TOKEN,
  startQuotaEndpoint,
  type QuotaEndpoint,
} from '../../../fakes/quota-endpoint/server.js';
import { openDatabase, type Db } from '../db/database.js';
import { startTestDaemon, waitFor } from '../testing/harness.js';
import { Admission } from './admission.js';
import { quotaConfigFromEnv } from './quota-config.js';
import { QuotaService } from './quota-service.js';
import { SCHEMA } from '../schema.js';

const MIN = 60_000;

describe('quota windows from the usage endpoint and the stream', () => {
  let fake: QuotaEndpoint;
  let db: Db;
  let clock: number;
  let service: QuotaService;
  const window = (name: string) =>
    service.view('demo', true).windows.find((w) => w.window === name)!;

  before(async () => {
    fake = await startQuotaEndpoint();
  });
  after(async () => {
    await fake.close();
  });
  beforeEach(() => {
    db = openDatabase(join(mkdtempSync(join(tmpdir(), 'relais-quota-')), 'q.db'), SCHEMA);
    db.prepare(
      `INSERT INTO subscriptions (id, name, agent, config_dir, builtin, created_at) VALUES ('demo', 'Demo', 'claude', '/tmp', 1, '2026-01-01T00:00:00.000Z')`,
    ).run();
    clock = Date.now();
    fake.script.mode = 'ok';
    fake.script.windows = defaultWindows(clock);
    fake.requests.length = 0;
    service = new QuotaService(
      db,
      { ...quotaConfigFromEnv({}), pollMs: 5 * MIN, demoPollMs: 5 * MIN },
      () => fake.url,
      DEMO_QUOTA_TOKEN,
      () => clock,
    );
  });

  it('unknown before any reading (null, never 0), fresh after a poll, stale past the threshold', async () => {
    assert.deepEqual(
      {
        u: window('five_hour').utilization,
        s: window('five_hour').status,
        src: window('five_hour').source,
      },
      { u: null, s: 'unknown', src: 'none' },
    );
    await service.pollDue();
    assert.equal(fake.requests[0]!.authorization, `Bearer ${DEMO_QUOTA_TOKEN}`);
    assert.equal(fake.requests[0]!.beta, 'oauth-2025-04-20');
    assert.deepEqual(
      { u: window('five_hour').utilization, s: window('five_hour').status },
      { u: 24, s: 'fresh' },
    );
    assert.equal(window('seven_day').utilization, 36);
    assert.equal(
      service.view('demo', true).windows.some((w) => w.window === 'seven_day_opus'),
      false,
      'a null window is absent',
    );
    clock += 11 * MIN;
    assert.equal(window('five_hour').status, 'stale');
    assert.equal(
      window('five_hour').utilization,
      24,
      'a stale reading keeps its figure, labelled stale',
    );
  });

  it('a frozen upstream answer does not refresh a window past its reset: stale', async () => {
    fake.script.windows.five_hour = {
      utilization: 50,
      resets_at: new Date(clock + MIN).toISOString(),
    };
    await service.pollDue();
    clock += 2 * MIN;
    assert.equal(window('five_hour').status, 'stale');
  });

  it('429 is honoured: no request before retry-after; other failures back off by doubling', async () => {
    fake.script.mode = 'rate_limited';
    fake.script.retryAfterSeconds = 120;
    await service.pollDue();
    const state = service.poller.state('demo')!;
    assert.equal(state.nextAttemptMs, clock + 120_000);
    assert.match(state.lastError!, /429/);
    clock += 60_000;
    await service.pollDue();
    assert.equal(fake.requests.length, 1, 'no second request inside retry-after');
    fake.script.mode = 'error';
    clock += 61_000;
    await service.pollDue();
    assert.equal(fake.requests.length, 2);
    assert.equal(
      service.poller.state('demo')!.nextAttemptMs,
      clock + 60_000,
      'second failure: 30 s × 2',
    );
    fake.script.mode = 'ok';
    clock += 60_000;
    await service.pollDue();
    assert.equal(window('five_hour').status, 'fresh');
    assert.equal(service.poller.state('demo')!.failures, 0);
    assert.equal(service.poller.state('demo')!.nextAttemptMs, clock + 5 * MIN);
  });

  it('rate_limit_event lines give readings (fraction → percent), newest reading wins', () => {
    db.prepare(
      `INSERT INTO sessions (id, subscription_id, agent, model, cwd, permission_mode, app, state, created_at, deadline_at, max_deadline_at)
      VALUES ('s1', 'demo', 'claude', 'm', '/', 'write', 'a', 'idle', 'x', 'x', 'x')`,
    ).run();
    const line = {
      type: 'rate_limit_event',
      rate_limit_info: {
        status: 'allowed_warning',
        resetsAt: Math.floor(clock / 1000) + 3600,
        rateLimitType: 'five_hour',
        utilization: 0.91,
        unifiedWindows: {
          five_hour: { utilization: 0.91, resetsAt: Math.floor(clock / 1000) + 3600 },
          seven_day: { utilization: 0.3, resetsAt: Math.floor(clock / 1000) + 86400 },
        },
      },
    };
    service.hear({
      session_id: 's1',
      seq: 1,
      received_at_ms: clock,
      source: 'agent',
      data: JSON.stringify(line),
    });
    assert.equal(window('five_hour').utilization, 91);
    assert.equal(window('five_hour').source, 'stream');
    assert.equal(window('seven_day').utilization, 30);
    const older = {
      ...line,
      rate_limit_info: {
        ...line.rate_limit_info,
        unifiedWindows: { five_hour: { utilization: 0.1, resetsAt: 0 } },
      },
    };
    service.hear({
      session_id: 's1',
      seq: 2,
      received_at_ms: clock - 1000,
      source: 'agent',
      data: JSON.stringify(older),
    });
    assert.equal(
      window('five_hour').utilization,
      91,
      'an older reading never replaces a newer one',
    );
  });

  it('a line of an imported transcript is history: it gives no reading', () => {
    db.prepare(
      `INSERT INTO sessions (id, origin, subscription_id, agent, model, cwd, permission_mode, app, state, created_at, deadline_at, max_deadline_at)
      VALUES ('imported-1', 'imported', 'demo', 'claude', 'm', '/', 'read_only', 'imported', 'ended', 'x', 'x', 'x')`,
    ).run();
    const line = {
      type: 'rate_limit_event',
      rate_limit_info: {
        status: 'allowed',
        unifiedWindows: {
          five_hour: { utilization: 0.02, resetsAt: Math.floor(clock / 1000) + 60 },
        },
      },
    };
    service.hear({
      session_id: 'imported-1',
      seq: 1,
      received_at_ms: clock + 60_000,
      source: 'agent',
      data: JSON.stringify(line),
    });
    assert.equal(window('five_hour').utilization, null);
  });

  it('admission reserves running + new sessions at the rate the window moved by, and refuses past the threshold', () => {
    const admission = new Admission(db, service, 95);
    assert.equal(admission.check('demo').reason, 'no_reading');
    assert.equal(admission.check('demo').admit, true);
    const insertSession =
      db.prepare(`INSERT INTO sessions (id, subscription_id, agent, model, cwd, permission_mode, app, state, created_at, deadline_at, max_deadline_at, turns)
      VALUES (?, 'demo', 'claude', 'm', '/', 'write', 'a', ?, ?, 'x', 'x', 1)`);
    const insertTurn =
      db.prepare(`INSERT INTO turns (turn_key, session_id, subscription_id, agent, model, models, app, permission_mode, started_at_ms, ended_at_ms, duration_ms, model_calls, input_tokens, output_tokens, cache_read_tokens, cache_creation_tokens, cost_usd, is_error)
      VALUES (?, ?, 'demo', 'claude', 'm', 'm', 'a', 'write', ?, ?, 1, 1, ?, 0, 0, 0, NULL, 0)`);
    const resets = clock + 3600_000;
    const read = (utilization: number, at: number): void =>
      service.repo.save('demo', [
        {
          window: 'five_hour',
          utilization,
          resets_at_ms: resets,
          read_at_ms: at,
          source: 'usage_endpoint',
        },
      ]);
    // The window stood at 50 % before any of these sessions: that is no part of their cost.
    read(50, clock - 2 * MIN);
    let decision = admission.check('demo');
    assert.equal(decision.figures.rate_source, 'prior');
    assert.equal(decision.figures.units_per_session, 400, "the demo plan's prior session");
    // 4 ended sessions of 1000 units each, then the window shows 58 %: 2 % per 1000 units.
    for (let i = 0; i < 4; i++) {
      insertSession.run(`e${i}`, 'ended', `2026-01-0${i + 1}`);
      insertTurn.run(`k${i}`, `e${i}`, clock - MIN, clock - MIN, 1000);
    }
    read(58, clock);
    decision = admission.check('demo');
    assert.equal(decision.admit, true);
    assert.equal(decision.figures.rate_source, 'learned');
    assert.equal(decision.figures.learned_from_sessions, 4);
    assert.ok(Math.abs(decision.figures.rate_per_session! - 2) < 1e-9);
    assert.ok(Math.abs(decision.figures.projected! - 60) < 1e-9);
    // Three running sessions that used 200 units each reserve 800 units = 1.6 % each; meanwhile the
    // window jumped to 90 % from use elsewhere, which teaches nothing about these sessions' cost.
    for (let i = 0; i < 3; i++) {
      insertSession.run(`r${i}`, 'idle', `2026-02-0${i + 1}`);
      insertTurn.run(`rk${i}`, `r${i}`, clock + 1, clock + 1, 200);
    }
    read(90, clock + 2);
    decision = admission.check('demo');
    // 90 + 2 (new) + 3 × 1.6 (running) = 96.8 % > 95.
    assert.equal(decision.admit, false);
    assert.equal(decision.reason, 'would_pass_threshold');
    assert.equal(decision.figures.running_sessions, 3);
    assert.ok(Math.abs(decision.figures.projected! - 96.8) < 1e-9, `${decision.figures.projected}`);
    assert.ok(Math.abs(decision.figures.reserved_running - 4.8) < 1e-9);
    assert.equal(decision.retry_after_seconds, 3600);
    assert.match(decision.message, /learned from 4 sessions/);
  });
  it('the readings history keeps a run of equal readings as its first and last, and no older reading', () => {
    const read = (utilization: number, at: number): void =>
      service.repo.save('demo', [
        {
          window: 'five_hour',
          utilization,
          resets_at_ms: clock + 3600_000,
          read_at_ms: at,
          source: 'usage_endpoint',
        },
      ]);
    for (let i = 0; i < 5; i++) read(30, clock + i * MIN);
    read(31, clock + 5 * MIN);
    read(10, clock + 2 * MIN); // older than the latest: neither the latest nor the history
    assert.deepEqual(
      service.repo
        .readings('demo', 'five_hour', 0)
        .map((r) => [r.utilization, (r.read_at_ms - clock) / MIN]),
      [
        [30, 0],
        [30, 4],
        [31, 5],
      ],
    );
  });

  it('a stale reading: what Relais used since it was taken is added, and its age is shown', () => {
    const admission = new Admission(db, service, 95);
    service.repo.save('demo', [
      {
        window: 'five_hour',
        utilization: 40,
        resets_at_ms: clock + 3 * 3600_000,
        read_at_ms: clock - 2 * 3600_000,
        source: 'usage_endpoint',
      },
    ]);
    db.prepare(
      `INSERT INTO sessions (id, subscription_id, agent, model, cwd, permission_mode, app, state, created_at, deadline_at, max_deadline_at, turns)
      VALUES ('after', 'demo', 'claude', 'm', '/', 'write', 'a', 'ended', '2026-01-01', 'x', 'x', 1)`,
    ).run();
    db.prepare(
      `INSERT INTO turns (turn_key, session_id, subscription_id, agent, model, models, app, permission_mode, started_at_ms, ended_at_ms, duration_ms, model_calls, input_tokens, output_tokens, cache_read_tokens, cache_creation_tokens, cost_usd, is_error)
      VALUES ('t', 'after', 'demo', 'claude', 'm', 'm', 'a', 'write', ?, ?, 1, 1, 4000, 0, 0, 0, NULL, 0)`,
    ).run(clock - 3600_000, clock - 3600_000);
    const figures = admission.check('demo').figures;
    assert.equal(figures.reading_status, 'stale');
    assert.equal(figures.read_age_seconds, 7200);
    // 4000 units at the demo prior (0.5 % per 1000): 2 % used since the reading, 2 % reserved.
    assert.equal(figures.rate_source, 'prior');
    assert.ok(Math.abs(figures.used_since_reading - 2) < 1e-9, `${figures.used_since_reading}`);
    assert.ok(Math.abs(figures.projected! - 44) < 1e-9, `${figures.projected}`);
  });
});

describe('GET /api/quotas and the launch check on a real daemon', { timeout: 60_000 }, () => {
  it('the demo subscription reads its scripted endpoint; a full window refuses launches with 429 quota_exhausted', async () => {
    const fake = await startQuotaEndpoint();
    const saved = { ...process.env };
    Object.assign(process.env, { RELAIS_QUOTA_DEMO_URL: fake.url, RELAIS_QUOTA_POLL_SECONDS: '1' });
    const daemon = await startTestDaemon();
    try {
      const fresh = await waitFor('a fresh reading', async () => {
        const q = (await daemon.call<QuotasAnswer>('GET', '/api/quotas')).body;
        const demo = q.items.find((i) => i.subscription_id === 'demo');
        return demo?.windows[0]?.status === 'fresh' ? q : undefined;
      });
      assert.equal(fresh.stale_after_seconds, 600);
      assert.deepEqual(
        fresh.items
          .find((i) => i.subscription_id === 'demo')!
          .windows.map((w) => [w.window, w.utilization]),
        [
          ['five_hour', 24],
          ['seven_day', 36],
        ],
      );
      fake.script.windows.five_hour = {
        utilization: 97,
        resets_at: new Date(Date.now() + 600_000).toISOString(),
      };
      await waitFor(
        '97 %',
        async () =>
          (await daemon.call<QuotasAnswer>('GET', '/api/quotas')).body.items[0]!.windows[0]!
            .utilization === 97,
      );
      const refused = await daemon.call('POST', '/api/sessions', {
        subscription_id: 'demo',
        model: 'demo-sonnet',
        cwd: tmpdir(),
        app: 'tests',
      });
      assert.equal(refused.status, 429);
      assert.equal(refused.body.error_code, 'quota_exhausted');
      assert.equal(refused.body.figures.window, 'five_hour');
      assert.equal(refused.body.figures.utilization, 97);
      assert.ok(Number(refused.headers['retry-after']) > 500);
      const doc = (await daemon.call('GET', '/api/openapi.json')).body;
      for (const path of [
        '/api/quotas',
        '/api/analytics/summary',
        '/api/analytics/timeseries',
        '/api/analytics/breakdown',
        '/api/analytics/turns',
        '/api/analytics/export',
      ]) {
        assert.ok(doc.paths[path]?.get, `${path} is documented`);
      }
    } finally {
      await daemon.close();
      await fake.close();
      process.env = saved;
    }
  });
});
