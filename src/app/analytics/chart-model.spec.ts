import { AnalyticsTimeseries } from '../../../contract/usage';
import { LIGHT_PALETTE, costChart, tokensChart } from './chart-model';

const empty = { input: 0, output: 0, cache_read: 0, cache_creation: 0 };
const ts: AnalyticsTimeseries = {
  from: '2026-11-30T00:00:00.000Z',
  to: '2026-11-30T02:00:00.000Z',
  bucket: '1h',
  bucket_ms: 3_600_000,
  points: [
    {
      t: '2026-11-30T00:00:00.000Z',
      turns: 2,
      tokens: { input: 200, output: 26, cache_read: 100, cache_creation: 40 },
      cost_estimate_usd: 0,
      errors: 0,
      duration: { median_ms: 239, p95_ms: 288.5 },
      cache_hit_rate: 0.29,
    },
    {
      t: '2026-11-30T01:00:00.000Z',
      turns: 0,
      tokens: empty,
      cost_estimate_usd: 0,
      errors: 0,
      duration: { median_ms: null, p95_ms: null },
      cache_hit_rate: null,
    },
  ],
};

describe('chart models', () => {
  it('gives the tokens chart a table with the same data, one row per bucket that holds turns', () => {
    const model = tokensChart(ts, LIGHT_PALETTE);
    expect(model.table.columns).toEqual([
      'Bucket start',
      'Input tokens',
      'Output tokens',
      'Cache read tokens',
      'Cache creation tokens',
    ]);
    expect(model.table.rows.length).toBe(1);
    expect(model.table.rows[0]!.slice(1)).toEqual(['200', '26', '100', '40']);
    expect(model.description).toContain('input 200');
  });

  it('never shows an unpriced key as $0 in the cost chart or its table', () => {
    const model = costChart(
      [
        { key: 'claude-opus-5-5', turns: 2, cost: { estimate_usd: 0, unknown_cost_turns: 2 } },
        {
          key: 'claude-sonnet-4-5',
          turns: 1,
          cost: { estimate_usd: 0.002055, unknown_cost_turns: 0 },
        },
      ],
      'model',
      LIGHT_PALETTE,
    );
    expect(model.table.rows).toEqual([
      ['claude-sonnet-4-5', '1', '$0.0021', '0'],
      ['claude-opus-5-5', '2', 'unknown', '2'],
    ]);
    expect(model.description).toContain('claude-opus-5-5 unknown');
  });
});
