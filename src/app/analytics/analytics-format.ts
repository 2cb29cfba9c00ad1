import { formatNumber, formatUsd } from '../shared/locale-format';
import { plural } from '../shared/plural';

/**
 * Figures as people read them, in the console's language (shared/locale-format.ts). An unknown
 * value is said to be unknown, never shown as zero.
 */

const UNKNOWN = $localize`:an unknown cost:unknown`;

/** `12,345` (`12 345`). */
export function formatCount(value: number): string {
  return formatNumber(value);
}

/** Tokens, compact: `950`, `12.3k`, `4.56M`, `1.2B`. */
export function formatTokens(value: number): string {
  const abs = Math.abs(value);
  if (abs < 1000) return String(Math.round(value));
  const [divisor, unit] =
    abs < 1e6
      ? [1e3, $localize`:compact number|Thousands:k`]
      : abs < 1e9
        ? [1e6, $localize`:compact number|Millions:M`]
        : [1e9, $localize`:compact number|Billions:B`];
  const scaled = value / divisor;
  const digits = Math.abs(scaled) < 10 ? 2 : Math.abs(scaled) < 100 ? 1 : 0;
  return `${formatNumber(scaled, digits, { min: 0 })}${unit}`;
}

/**
 * An estimated cost in US dollars: `$0.0042`, `$1.23`, `$1,234`. `null` (a model missing from the
 * price table) is `unknown`, never `$0`.
 */
export function formatCost(usd: number | null): string {
  if (usd === null || !Number.isFinite(usd)) return UNKNOWN;
  if (usd === 0) return formatUsd(0, 2);
  const abs = Math.abs(usd);
  if (abs < 0.01) return formatUsd(usd, 4);
  if (abs < 1000) return formatUsd(usd, 2);
  return formatUsd(Math.round(usd), 0);
}

/**
 * The cost figure of a scope: the known sum, or `unknown` when no turn of the scope has a known
 * cost. Turns with an unknown cost are counted apart (see `unknownCostNote`).
 */
export function formatCostEstimate(
  cost: { estimate_usd: number; unknown_cost_turns: number },
  turns: number,
): string {
  if (turns > 0 && cost.unknown_cost_turns >= turns) return UNKNOWN;
  return formatCost(cost.estimate_usd);
}

/** `3 turns with unknown cost`, or empty when every cost is known. */
export function unknownCostNote(unknownTurns: number): string {
  if (unknownTurns <= 0) return '';
  const count = formatCount(unknownTurns);
  return plural(unknownTurns, {
    one: $localize`${count}:count: turn with unknown cost`,
    other: $localize`${count}:count: turns with unknown cost`,
  });
}

/** `1 model call`, `12 model calls`. */
export function modelCallsNote(calls: number): string {
  const count = formatCount(calls);
  return plural(calls, {
    one: $localize`${count}:count: model call`,
    other: $localize`${count}:count: model calls`,
  });
}

/** A duration: `850 ms`, `12.3 s`, `4 min 05 s`, `2 h 10 min`; `null` (no data) is `—`. */
export function formatDuration(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${formatNumber(ms / 1000, 1, { min: 0 })} s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 3600)
    return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
  const minutes = Math.round(seconds / 60);
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** A ratio as a percentage: `53.1 %`; `null` (nothing to divide) is `—`. */
export function formatRate(ratio: number | null): string {
  if (ratio === null || !Number.isFinite(ratio)) return '—';
  return `${formatNumber(ratio * 100, 1, { min: 0 })} %`;
}
