import { HIST_RATIO } from './rollup-schema.js';

const LOG_RATIO = Math.log(HIST_RATIO);

/**
 * Duration histogram with log-spaced buckets: bucket 0 holds 0 ms, bucket b ≥ 1 holds
 * [r^(b−1), r^b) with r = HIST_RATIO. Stored as a blob of little-endian uint32 pairs
 * (bucket, count) in bucket order — the SQL backfill writes the same bytes. In memory, a dense
 * array indexed by bucket: merging thousands of blobs is the hot path of every rollup answer.
 */
export class Histogram {
  counts = new Float64Array(256);
  size = 0;

  add(bucket: number, n: number): void {
    if (bucket >= this.counts.length) {
      const grown = new Float64Array(Math.max(bucket + 1, this.counts.length * 2));
      grown.set(this.counts);
      this.counts = grown;
    }
    this.counts[bucket]! += n;
    if (bucket >= this.size) this.size = bucket + 1;
  }

  addBlob(blob: Buffer | null): void {
    if (!blob) return;
    for (let k = 0; k + 8 <= blob.length; k += 8) {
      const bucket = blob[k]! | (blob[k + 1]! << 8) | (blob[k + 2]! << 16);
      this.add(bucket, blob.readUInt32LE(k + 4));
    }
  }

  addValue(ms: number, n = 1): void {
    this.add(bucketOf(ms), n);
  }

  merge(from: Histogram): void {
    for (let b = 0; b < from.size; b++) if (from.counts[b]) this.add(b, from.counts[b]!);
  }

  toBlob(): Buffer {
    const parts: number[] = [];
    for (let b = 0; b < this.size; b++) if (this.counts[b]) parts.push(b, this.counts[b]!);
    const blob = Buffer.alloc(parts.length * 4);
    parts.forEach((v, k) => blob.writeUInt32LE(v, k * 4));
    return blob;
  }
}

export function bucketOf(ms: number): number {
  return ms <= 0 ? 0 : Math.floor(Math.log(ms) / LOG_RATIO) + 1;
}

/** The bucket's geometric middle: within √r − 1 (< 2 %) of any value in it. */
export function bucketValue(bucket: number): number {
  return bucket === 0 ? 0 : Math.exp((bucket - 0.5) * LOG_RATIO);
}

export const PERCENTILE_RELATIVE_ERROR = Math.sqrt(HIST_RATIO) - 1;

/**
 * Percentiles as SQLite's percentile() computes them (linear interpolation between the closest
 * ranks), with each ranked value replaced by its bucket's middle: a convex combination of values
 * each within PERCENTILE_RELATIVE_ERROR, so the answer is within it too.
 */
export function percentiles(h: Histogram, ps: readonly number[]): (number | null)[] {
  let total = 0;
  for (let b = 0; b < h.size; b++) total += h.counts[b]!;
  if (total === 0) return ps.map(() => null);
  const valueAtRank = (rank: number): number => {
    let seen = 0;
    for (let b = 0; b < h.size; b++) {
      seen += h.counts[b]!;
      if (rank < seen) return bucketValue(b);
    }
    return bucketValue(h.size - 1);
  };
  return ps.map((p) => {
    const rank = ((total - 1) * p) / 100;
    const low = valueAtRank(Math.floor(rank));
    const high = valueAtRank(Math.ceil(rank));
    return low + (high - low) * (rank - Math.floor(rank));
  });
}
