import { HIST_RATIO } from './rollup-schema.js';

const LOG_RATIO = Math.log(HIST_RATIO);
/** Buckets up to about six days: one allocation for nearly every histogram, however many blobs. */
const MIN_BUCKETS = 512;

/**
 * Duration histogram with log-spaced buckets: bucket 0 holds 0 ms, bucket b ≥ 1 holds
 * [r^(b−1), r^b) with r = HIST_RATIO. Stored as a blob of little-endian uint32 pairs
 * (bucket, count) in bucket order — the SQL backfill writes the same bytes. In memory, a dense
 * array indexed by bucket: merging thousands of blobs is the hot path of every rollup answer.
 */
export class Histogram {
  // Sized on first use: a series answer builds thousands of these, most from one or two blobs.
  counts = new Float64Array(0);
  size = 0;
  total = 0;

  add(bucket: number, n: number): void {
    this.reserve(bucket + 1);
    this.counts[bucket]! += n;
    this.total += n;
    if (bucket >= this.size) this.size = bucket + 1;
  }

  addBlob(blob: Buffer | null): void {
    if (!blob || blob.length < 8) return;
    const end = blob.length - (blob.length % 8);
    // Pairs are in bucket order: the last one says how large the array must be.
    this.reserve(bucketAt(blob, end - 8) + 1);
    for (let k = 0; k < end; k += 8) this.add(bucketAt(blob, k), countAt(blob, k));
  }

  addValue(ms: number, n = 1): void {
    this.add(bucketOf(ms), n);
  }

  private reserve(length: number): void {
    if (length <= this.counts.length) return;
    const grown = new Float64Array(Math.max(length, this.counts.length * 2, MIN_BUCKETS));
    grown.set(this.counts.subarray(0, this.size));
    this.counts = grown;
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

/** Bucket → count: the few durations a rollup cell gets from one batch, without a dense array. */
export type BucketCounts = Map<number, number>;

export function countInto(counts: BucketCounts, bucket: number, n = 1): void {
  counts.set(bucket, (counts.get(bucket) ?? 0) + n);
}

/**
 * A stored blob with `counts` added: the bytes of a Histogram that read the blob, then the
 * counts, then wrote itself, without its dense array. Pairs are merged in bucket order (a batch
 * of imported turns touches thousands of cells, most with a handful of values, and allocating
 * a dense array per cell was most of the import's garbage). A blob not in bucket order goes
 * through the Histogram.
 */
export function mergeIntoBlob(blob: Buffer | null, counts: BucketCounts): Buffer {
  const end = blob ? blob.length - (blob.length % 8) : 0;
  const added = [...counts.keys()].sort((a, b) => a - b);
  const buckets: number[] = [];
  const totals: number[] = [];
  const put = (bucket: number, n: number): void => {
    const last = buckets.length - 1;
    if (last >= 0 && buckets[last] === bucket) totals[last]! += n;
    else {
      buckets.push(bucket);
      totals.push(n);
    }
  };
  let next = 0;
  let previous = -1;
  for (let k = 0; k < end; k += 8) {
    const bucket = bucketAt(blob!, k);
    if (bucket < previous) return denseMerge(blob, counts);
    previous = bucket;
    while (next < added.length && added[next]! < bucket)
      put(added[next]!, counts.get(added[next++]!)!);
    put(bucket, countAt(blob!, k));
  }
  while (next < added.length) put(added[next]!, counts.get(added[next++]!)!);
  let pairs = 0;
  for (const total of totals) if (total) pairs++;
  const merged = Buffer.allocUnsafe(pairs * 8);
  let at = 0;
  for (let i = 0; i < buckets.length; i++) {
    if (!totals[i]) continue;
    merged.writeUInt32LE(buckets[i]!, at);
    merged.writeUInt32LE(totals[i]!, at + 4);
    at += 8;
  }
  return merged;
}

function denseMerge(blob: Buffer | null, counts: BucketCounts): Buffer {
  const hist = new Histogram();
  hist.addBlob(blob);
  for (const [bucket, n] of counts) hist.add(bucket, n);
  return hist.toBlob();
}

/** A pair's count: its last four bytes (little-endian, past 2^24 too). */
function countAt(blob: Buffer, k: number): number {
  return (blob[k + 4]! | (blob[k + 5]! << 8) | (blob[k + 6]! << 16)) + blob[k + 7]! * 16_777_216;
}

/** A pair's bucket: its first three bytes (little-endian). */
function bucketAt(blob: Buffer, k: number): number {
  return blob[k]! | (blob[k + 1]! << 8) | (blob[k + 2]! << 16);
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
  const total = h.total;
  if (total === 0) return ps.map(() => null);
  // Both ranks around each percentile, read in one walk up the buckets (a series asks for
  // thousands of these).
  const ranks = ps.flatMap((p) => {
    const rank = ((total - 1) * p) / 100;
    return [Math.floor(rank), Math.ceil(rank)];
  });
  const order = ranks.map((_, i) => i).sort((a, b) => ranks[a]! - ranks[b]!);
  const values = new Array<number>(ranks.length);
  let bucket = 0;
  let below = 0;
  for (const i of order) {
    while (bucket < h.size - 1 && ranks[i]! >= below + h.counts[bucket]!) {
      below += h.counts[bucket]!;
      bucket++;
    }
    values[i] = bucketValue(bucket);
  }
  return ps.map((p, k) => {
    const rank = ((total - 1) * p) / 100;
    const low = values[2 * k]!;
    const high = values[2 * k + 1]!;
    return low + (high - low) * (rank - Math.floor(rank));
  });
}
