import { parseCsv } from '../testing/csv.js';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type {
  AnalyticsBreakdown,
  AnalyticsSummary,
  AnalyticsTimeseries,
  TurnRow,
} from '../../../contract/usage.js';
import { startTestDaemon, type TestDaemon } from '../testing/harness.js';
import { EXPORT_COLUMNS } from './export.js';
import { percentile } from './stats.js';
import type { TurnRecord } from '../agents/turn-record.js';
import { TurnWriter } from './turn-writer.js';

const T0 = Date.parse('2026-03-01T00:00:00.000Z');
const NASTY = 'line one, "quoted"\r\nline two\nnaïve ✓';

function turn(i: number): TurnRecord {
  const error = i % 7 === 0;
  return {
    turn_key: `k${i}`,
    session_id: `s${i % 5}`,
    subscription_id: i % 2 ? 'sub-a' : 'sub-b',
    agent: 'claude',
    model: i % 3 ? 'claude-sonnet-4-5' : 'mystery-model',
    models: ['x'],
    app: `app,${i % 2}`,
    permission_mode: 'write',
    started_at_ms: T0 + i * 60_000,
    ended_at_ms: T0 + i * 60_000 + 100 * i,
    duration_ms: 100 * i,
    model_calls: 1 + (i % 3),
    input_tokens: 10 * i,
    output_tokens: i,
    cache_read_tokens: 5 * i,
    cache_creation_tokens: 2,
    cost_usd: i % 3 ? i / 1000 : null,
    is_error: error,
    error_kind: error ? 'api_error' : null,
    error_message: error ? NASTY : null,
    tool_calls:
      i % 2
        ? [
            {
              tool_use_id: `t${i}`,
              tool_name: i % 4 === 1 ? 'Bash' : 'Read',
              started_at_ms: T0,
              ended_at_ms: T0 + i,
              duration_ms: i,
              is_error: false,
              permission_decision: 'allowed',
            },
          ]
        : [],
  };
}

describe('analytics over recorded turns', () => {
  let daemon: TestDaemon;
  const turns = Array.from({ length: 60 }, (_, i) => turn(i + 1));

  before(async () => {
    daemon = await startTestDaemon();
    const writer = new TurnWriter(daemon.relais.db);
    for (const t of turns) writer.add(t);
    writer.flush();
  });
  after(async () => {
    await daemon.close();
  });

  it('summary: median, P95, cache rate, cost and unknowns from the raw turns', async () => {
    const s = (await daemon.call<AnalyticsSummary>('GET', '/api/analytics/summary')).body;
    assert.equal(s.turns, 60);
    assert.equal(
      s.duration.median_ms,
      percentile(
        turns.map((t) => t.duration_ms),
        50,
      ),
    );
    assert.equal(
      s.duration.p95_ms,
      percentile(
        turns.map((t) => t.duration_ms),
        95,
      ),
    );
    const read = turns.reduce((a, t) => a + t.cache_read_tokens, 0);
    const all = turns.reduce(
      (a, t) => a + t.input_tokens + t.cache_read_tokens + t.cache_creation_tokens,
      0,
    );
    assert.equal(s.cache_hit_rate, read / all);
    assert.ok(
      Math.abs(s.cost.estimate_usd - turns.reduce((a, t) => a + (t.cost_usd ?? 0), 0)) < 1e-9,
    );
    assert.equal(s.cost.unknown_cost_turns, turns.filter((t) => t.cost_usd === null).length);
    assert.equal(s.cost.label, 'estimate');
    assert.equal(s.errors.count, 8);
    const bash = s.tools.find((t) => t.tool_name === 'Bash')!;
    assert.equal(bash.calls, turns.filter((t) => t.tool_calls[0]?.tool_name === 'Bash').length);
  });

  it('time series: at most max_points buckets whose sums match the summary', async () => {
    const ts = (
      await daemon.call<AnalyticsTimeseries>('GET', '/api/analytics/timeseries?max_points=10')
    ).body;
    assert.ok(ts.points.length <= 10, `${ts.points.length} points`);
    assert.equal(ts.bucket, '15m', '59 minutes in at most 10 buckets');
    assert.equal(
      ts.points.reduce((a, p) => a + p.turns, 0),
      60,
    );
    const fine = (await daemon.call<AnalyticsTimeseries>('GET', '/api/analytics/timeseries')).body;
    assert.equal(fine.bucket, '10s');
    assert.equal(fine.points.filter((p) => p.turns > 0).length, 60);
  });

  it('breakdowns by model and by tool', async () => {
    const byModel = (
      await daemon.call<AnalyticsBreakdown>('GET', '/api/analytics/breakdown?by=model')
    ).body;
    assert.deepEqual(
      byModel.items.map((r) => ['key' in r ? r.key : '', r.turns]),
      [
        ['claude-sonnet-4-5', 40],
        ['mystery-model', 20],
      ],
    );
    const byTool = (
      await daemon.call<AnalyticsBreakdown>(
        'GET',
        '/api/analytics/breakdown?by=tool&subscription=sub-a',
      )
    ).body;
    assert.equal(byTool.by, 'tool');
    assert.equal(
      byTool.items.reduce((a, r) => a + ('calls' in r ? r.calls : 0), 0),
      30,
    );
    assert.equal((await daemon.call('GET', '/api/analytics/breakdown?by=color')).status, 400);
  });

  it('turns page through a cursor without gaps or repeats', async () => {
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: TurnRow[]; next_cursor: string | null } = (
        await daemon.call(
          'GET',
          `/api/analytics/turns?limit=7&model=claude-sonnet-4-5${cursor ? `&cursor=${cursor}` : ''}`,
        )
      ).body;
      seen.push(...page.items.map((t) => t.id));
      cursor = page.next_cursor;
    } while (cursor);
    assert.equal(seen.length, 40);
    assert.equal(new Set(seen).size, 40);
    assert.equal((await daemon.call('GET', '/api/analytics/turns?cursor=oops')).status, 400);
  });

  it('CSV export round-trips quotes, commas, newlines and UTF-8', async () => {
    const answer = await daemon.call('GET', '/api/analytics/export?format=csv&error=yes');
    assert.equal(answer.status, 200);
    assert.match(String(answer.headers['content-type']), /^text\/csv; charset=utf-8/);
    const rows = parseCsv(answer.text);
    assert.deepEqual(rows[0], [...EXPORT_COLUMNS]);
    assert.equal(rows.length, 1 + 8);
    const col = (name: string): number =>
      EXPORT_COLUMNS.indexOf(name as (typeof EXPORT_COLUMNS)[number]);
    for (const row of rows.slice(1)) {
      assert.equal(row.length, EXPORT_COLUMNS.length);
      assert.equal(row[col('error_message')], NASTY);
      assert.match(row[col('app')]!, /^app,[01]$/);
    }
    const mystery = rows.find((r) => r[col('model')] === 'mystery-model')!;
    assert.equal(mystery[col('cost_estimate_usd')], '', 'unknown cost is empty, not 0');
  });

  it('the CSV export says exactly what the JSON export says, column by column', async () => {
    const json = JSON.parse(
      (await daemon.call('GET', '/api/analytics/export?format=json')).text,
    ) as TurnRow[];
    const csv = parseCsv((await daemon.call('GET', '/api/analytics/export?format=csv')).text);
    assert.equal(csv.length, 1 + json.length);
    json.forEach((turn, i) =>
      assert.deepEqual(
        csv[i + 1],
        EXPORT_COLUMNS.map((c) => (turn[c] === null ? '' : String(turn[c]))),
        `turn ${turn.id}`,
      ),
    );
  });

  it('JSON and NDJSON exports hold the same turns as the turns endpoint', async () => {
    const json = JSON.parse(
      (await daemon.call('GET', '/api/analytics/export?format=json')).text,
    ) as TurnRow[];
    assert.equal(json.length, 60);
    const lines = (await daemon.call('GET', '/api/analytics/export?format=ndjson&tool=Bash')).text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as TurnRow);
    assert.equal(lines.length, 15);
    const page = (await daemon.call('GET', '/api/analytics/turns?limit=500&tool=Bash')).body
      .items as TurnRow[];
    assert.deepEqual(lines, [...page].reverse());
    assert.equal(
      JSON.parse((await daemon.call('GET', '/api/analytics/export?format=json&model=none')).text)
        .length,
      0,
    );
  });
});

describe('analytics: imported turns filtered in or out by origin', () => {
  let daemon: TestDaemon;
  const at = (app: string, i: number): TurnRecord => ({ ...turn(i), app, turn_key: `${app}${i}` });
  const add = (records: TurnRecord[]): void => {
    const writer = new TurnWriter(daemon.relais.db);
    for (const t of records) writer.add(t);
    writer.flush();
  };
  const count = async (query: string): Promise<number> =>
    (await daemon.call<AnalyticsSummary>('GET', `/api/analytics/summary?${query}`)).body.turns;

  before(async () => {
    daemon = await startTestDaemon();
    add([1, 2, 3].map((i) => at('console', i)).concat([4, 5].map((i) => at('imported', i))));
  });
  after(async () => {
    await daemon.close();
  });

  it('origin=relais leaves out imported turns, and keeps an app that appears later', async () => {
    assert.equal(await count('origin=relais'), 3);
    assert.equal(await count('origin=imported'), 2);
    add([6, 7, 8, 9].map((i) => at('ci-bot', i)));
    assert.equal(await count('origin=relais'), 7, 'the new app is not imported: it is counted');
    assert.equal(await count('origin=imported'), 2);
    assert.equal(await count('origin=relais&app=ci-bot'), 4);
    assert.equal(await count('origin=imported&app=ci-bot'), 0);
    const byApp = (
      await daemon.call<AnalyticsBreakdown>('GET', '/api/analytics/breakdown?by=app&origin=relais')
    ).body;
    assert.deepEqual(byApp.items.map((r) => ('key' in r ? r.key : '')).sort(), [
      'ci-bot',
      'console',
    ]);
    const exported = JSON.parse(
      (await daemon.call('GET', '/api/analytics/export?format=json&origin=relais')).text,
    ) as TurnRow[];
    assert.equal(exported.length, 7);
    assert.ok(exported.every((t) => t.app !== 'imported'));
  });

  it('an unknown origin is refused with 400', async () => {
    const answer = await daemon.call('GET', '/api/analytics/summary?origin=elsewhere');
    assert.equal(answer.status, 400);
    assert.ok((answer.body as { error_code?: string }).error_code);
  });
});
