import {
  formatCost,
  formatCostEstimate,
  formatCount,
  formatDuration,
  formatRate,
  formatTokens,
  unknownCostNote,
} from './analytics-format';

describe('analytics formatting', () => {
  it('formats token counts compactly', () => {
    expect(formatTokens(0)).toBe('0');
    expect(formatTokens(950)).toBe('950');
    expect(formatTokens(1000)).toBe('1k');
    expect(formatTokens(12_345)).toBe('12.3k');
    expect(formatTokens(4_560_000)).toBe('4.56M');
    expect(formatTokens(123_456_789)).toBe('123M');
    expect(formatTokens(1_200_000_000)).toBe('1.2B');
    expect(formatCount(1_234_567)).toBe('1,234,567');
  });

  it('formats an estimated cost, and an unknown one as unknown, never $0', () => {
    expect(formatCost(null)).toBe('unknown');
    expect(formatCost(0)).toBe('$0.00');
    expect(formatCost(0.002055)).toBe('$0.0021');
    expect(formatCost(1.234)).toBe('$1.23');
    expect(formatCost(12_345.6)).toBe('$12,346');
    expect(formatCostEstimate({ estimate_usd: 0, unknown_cost_turns: 2 }, 2)).toBe('unknown');
    expect(formatCostEstimate({ estimate_usd: 0.5, unknown_cost_turns: 2 }, 3)).toBe('$0.50');
    expect(formatCostEstimate({ estimate_usd: 0, unknown_cost_turns: 0 }, 0)).toBe('$0.00');
    expect(unknownCostNote(0)).toBe('');
    expect(unknownCostNote(1)).toBe('1 turn with unknown cost');
    expect(unknownCostNote(1200)).toBe('1,200 turns with unknown cost');
  });

  it('formats durations, and no data as a dash', () => {
    expect(formatDuration(null)).toBe('—');
    expect(formatDuration(288.5)).toBe('289 ms');
    expect(formatDuration(12_340)).toBe('12.3 s');
    expect(formatDuration(5000)).toBe('5 s');
    expect(formatDuration(245_000)).toBe('4 min 05 s');
    expect(formatDuration(7_800_000)).toBe('2 h 10 min');
  });

  it('formats rates as percentages', () => {
    expect(formatRate(null)).toBe('—');
    expect(formatRate(0)).toBe('0 %');
    expect(formatRate(0.29411764705882354)).toBe('29.4 %');
    expect(formatRate(1)).toBe('100 %');
  });
});
