import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { openDatabase } from '../db/database.js';
import { SCHEMA } from '../schema.js';
import { AuditLog } from '../permissions/audit-log.js';
import { TurnWriter } from '../usage/turn-writer.js';
import type { TurnRecord } from '../agents/turn-record.js';
import { LabelCaps, OTHER } from './label-cap.js';
import { promtoolCheck } from '../testing/prometheus-server.js';
import { usageMetrics } from './usage-metrics.js';

const turn = (n: number, app: string): TurnRecord => ({
  turn_key: `t${n}`,
  session_id: `ses_${n}`,
  subscription_id: 'demo',
  agent: 'claude',
  model: 'claude-sonnet-4-5',
  models: ['claude-sonnet-4-5'],
  app,
  permission_mode: 'write',
  started_at_ms: 1_780_000_000_000 + n * 60_000,
  ended_at_ms: 1_780_000_000_000 + n * 60_000 + 2000,
  duration_ms: 2000,
  model_calls: 1,
  input_tokens: 10,
  output_tokens: 5,
  cache_read_tokens: 100,
  cache_creation_tokens: 1,
  reasoning_tokens: 3,
  cost_usd: 0.5,
  is_error: false,
  error_kind: null,
  error_message: null,
  tool_calls: [],
});

const series = async (registry: Registry, name: string): Promise<Map<string, number>> => {
  const family = (await registry.getMetricsAsJSON()).find((m) => m.name === name)!;
  return new Map(family.values.map((v) => [String(v.labels['app']), v.value]));
};

describe('usage totals: the history at start, then the new rows', () => {
  const dir = mkdtempSync(join(tmpdir(), 'relais-totals-'));
  const db = openDatabase(join(dir, 'relais.db'), SCHEMA);
  after(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('counts turns stored before and after start once each, apps past the cap as other', async () => {
    const writer = new TurnWriter(db);
    // 40 apps before start: the first 30 seen in the rollups keep their names.
    for (let n = 0; n < 40; n++) writer.add(turn(n, `app-${String(n).padStart(2, '0')}`));
    writer.flush();
    const registry = new Registry();
    usageMetrics(registry, db, new LabelCaps(), () => undefined);
    const before = await series(registry, 'relais_turns_total');
    assert.equal(before.size, 31);
    assert.equal(before.get(OTHER), 10);
    assert.equal(
      [...before.values()].reduce((a, b) => a + b, 0),
      40,
    );
    // After start: a kept app grows, a new one folds into other, a turn already stored is not new.
    writer.add(turn(100, 'app-00'));
    writer.add(turn(101, 'a brand new app'));
    writer.add(turn(0, 'app-00'));
    writer.flush();
    const now = await series(registry, 'relais_turns_total');
    assert.equal(now.get('app-00'), 2);
    assert.equal(now.get(OTHER), 11);
    assert.equal(
      [...now.values()].reduce((a, b) => a + b, 0),
      42,
    );
    // Scraping again adds nothing.
    assert.deepEqual(await series(registry, 'relais_turns_total'), now);
    const durations = (await registry.getMetricsAsJSON()).find(
      (m) => m.name === 'relais_turn_duration_seconds',
    )!;
    const counts = durations.values.filter(
      (v) => (v as { metricName?: string }).metricName === 'relais_turn_duration_seconds_count',
    );
    assert.equal(
      counts.reduce((n, v) => n + v.value, 0),
      2,
      'the histogram counts turns after start',
    );
  });

  it('writes hostile names as valid label values, cut to 100 characters', async () => {
    const writer = new TurnWriter(db);
    const hostile = [
      'quote " and backslash \\ and\nnewline',
      '} 1\nrelais_turns_total{app="forged"} 999',
      'x'.repeat(10_000),
      'emoji 🧪 and a lone \ud800 surrogate',
    ];
    hostile.forEach((model, i) => writer.add({ ...turn(500 + i, 'app-00'), model }));
    writer.flush();
    // Rule names come from the person's rules file, hosts from the agent: the audit keeps them as given.
    const audit = new AuditLog(db);
    for (const rule of hostile)
      audit.record({ kind: 'decision', decision: 'deny', decided_by: 'rules', step: rule, rule });
    const registry = new Registry();
    usageMetrics(registry, db, new LabelCaps(), () => undefined);
    const text = await registry.metrics();
    const check = promtoolCheck(text);
    assert.equal(check.status, 0, check.output);
    assert.doesNotMatch(text, /^relais_turns_total\{app="forged"\}/m);
    assert.ok(!text.includes('x'.repeat(101)));
    assert.match(text, /rule="x{100}"/);
    assert.match(text, /rule="quote \\" and backslash \\\\ and\\nnewline"/);
  });
});
