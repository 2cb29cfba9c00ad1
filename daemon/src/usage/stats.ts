import type { Tokens } from '../../../contract/usage.js';

/** Percentile with linear interpolation between closest ranks (as SQLite's percentile() and numpy's default). */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = ((sorted.length - 1) * p) / 100;
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (rank - low);
}

export function cacheHitRate(t: Tokens): number | null {
  const all = t.input + t.cache_read + t.cache_creation;
  return all > 0 ? t.cache_read / all : null;
}
