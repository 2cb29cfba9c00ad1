import { HIST_RATIO } from './rollup-schema.js';

const LOG_RATIO = Math.log(HIST_RATIO);

/**
 * Duration histogram with log-spaced buckets: bucket 0 holds 0 ms, bucket b ≥ 1 holds
 * [r^(b−1), r^b) with r = HIST_RATIO. Stored as a blob of little-endian uint32 pairs
 * (bucket, count) in bucket order — the SQL backfill writes the same bytes.
 */
export type Histogram = Map<number, number>;

export function bucketOf(ms: number): number {
  return ms <= 0 ? 0 : Math.floor(Math.log(ms) / LOG_RATIO) + 1;
}

/** The bucket's geometric middle: within √r − 1 (< 2 %) of any value in it. */
export function bucketValue(bucket: number): number {
  return bucket === 0 ? 0 : Math.exp((bucket - 0.5) * LOG_RATIO);
}

export const PERCENTILE_RELATIVE_ERROR = Math.sqrt(HIST_RATIO) - 1;

export function addBlob(into: Histogram, blob: Buffer | null): void {
  if (!blob) return;
  for (let k = 0; k + 8 <= blob.length; k += 8) {
    const bucket = blob.readUInt32LE(k);
    into.set(bucket, (into.get(bucket) ?? 0) + blob.readUInt32LE(k + 4));
  }
}

export function addValue(into: Histogram, ms: number, count = 1): void {
  const bucket = bucketOf(ms);
  into.set(bucket, (into.get(bucket) ?? 0) + count);
}

export function merge(into: Histogram, from: Histogram): void {
  for (const [bucket, n] of from) into.set(bucket, (into.get(bucket) ?? 0) + n);
}

export function toBlob(h: Histogram): Buffer {
  const buckets = [...h.keys()].sort((a, b) => a - b);
  const blob = Buffer.alloc(buckets.length * 8);
  buckets.forEach((bucket, k) => {
    blob.writeUInt32LE(bucket, k * 8);
    blob.writeUInt32LE(h.get(bucket)!, k * 8 + 4);
  });
  return blob;
}

/**
 * Percentiles as SQLite's percentile() computes them (linear interpolation between the closest
 * ranks), with each ranked value replaced by its bucket's middle: a convex combination of values
 * each within PERCENTILE_RELATIVE_ERROR, so the answer is within it too.
 */
export function percentiles(h: Histogram, ps: readonly number[]): (number | null)[] {
  const buckets = [...h.entries()].filter(([, n]) => n > 0).sort((a, b) => a[0] - b[0]);
  const total = buckets.reduce((sum, [, n]) => sum + n, 0);
  if (total === 0) return ps.map(() => null);
  const valueAtRank = (rank: number): number => {
    let seen = 0;
    for (const [bucket, n] of buckets) {
      seen += n;
      if (rank < seen) return bucketValue(bucket);
    }
    return bucketValue(buckets[buckets.length - 1]![0]);
  };
  return ps.map((p) => {
    const rank = ((total - 1) * p) / 100;
    const low = valueAtRank(Math.floor(rank));
    const high = valueAtRank(Math.ceil(rank));
    return low + (high - low) * (rank - Math.floor(rank));
  });
}
