import { HIST_RATIO } from './rollup-schema.js';

const LOG_RATIO = Math.log(HIST_RATIO);
/** Buckets up to about six days: one allocation for nearly every histogram, however many blobs. */
const MIN_BUCKETS = 512;

/**
 * Duration histogram with log-spaced buckets: bucket 0 holds 0 ms, bucket b ≥ 1 holds
 * [r^(b−1), r^b) with r = HIST_RATIO. Stored as a blob of little-endian uint32 pairs
 * (bucket, count) in bucket order — the SQL backfill writes the same bytes. In memory, a dense
 * array indexed by bucket: merging thousands of blobs is the hot path of every rollup answer.
 * Blobs are kept as they come and added when the counts are first read: a series answer builds
 * thousands of these, most from one or two blobs, and only asks for their percentiles, which
 * read them through one shared array (see percentiles).
 */
export class Histogram {
  private dense = new Float64Array(0);
  private denseSize = 0;
  private denseTotal = 0;
  private blobs: Buffer[] | null = null;

  get counts(): Float64Array {
    if (this.blobs) this.settle();
    return this.dense;
  }

  get size(): number {
    if (this.blobs) this.settle();
    return this.denseSize;
  }

  get total(): number {
    if (this.blobs) this.settle();
    return this.denseTotal;
  }

  /** True when only blobs were added (nothing read yet): percentiles can read them without this array. */
  get onlyBlobs(): readonly Buffer[] | null {
    return this.denseSize === 0 ? this.blobs : null;
  }

  add(bucket: number, n: number): void {
    this.reserve(bucket + 1);
    this.dense[bucket]! += n;
    this.denseTotal += n;
    if (bucket >= this.denseSize) this.denseSize = bucket + 1;
  }

  addBlob(blob: Buffer | null): void {
    if (!blob || blob.length < 8) return;
    if (this.blobs) this.blobs.push(blob);
    else this.blobs = [blob];
  }

  addValue(ms: number, n = 1): void {
    this.add(bucketOf(ms), n);
  }

  private settle(): void {
    const blobs = this.blobs!;
    this.blobs = null;
    for (const blob of blobs) {
      const words = pairWords(blob);
      // Pairs are in bucket order: the last one says how large the array must be.
      this.reserve((words[words.length - 2]! & BUCKET_MASK) + 1);
      for (let k = 0; k < words.length; k += 2) this.add(words[k]! & BUCKET_MASK, words[k + 1]!);
    }
  }

  private reserve(length: number): void {
    if (length <= this.dense.length) return;
    const grown = new Float64Array(Math.max(length, this.dense.length * 2, MIN_BUCKETS));
    grown.set(this.dense.subarray(0, this.denseSize));
    this.dense = grown;
  }

  merge(from: Histogram): void {
    const counts = from.counts;
    for (let b = 0; b < from.size; b++) if (counts[b]) this.add(b, counts[b]!);
  }

  toBlob(): Buffer {
    const parts: number[] = [];
    const counts = this.counts;
    for (let b = 0; b < this.size; b++) if (counts[b]) parts.push(b, counts[b]!);
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

/** A pair's bucket is its first three bytes (bucketAt), its count its last four (countAt). */
const BUCKET_MASK = 0xffffff;
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * A blob's whole pairs as uint32 words (bucket, count, bucket, count…): a view on the blob when
 * it is aligned and the machine little-endian, as the blob is; else a copy read byte by byte.
 */
function pairWords(blob: Buffer): Uint32Array {
  const words = (blob.length - (blob.length % 8)) / 4;
  if (LITTLE_ENDIAN && blob.byteOffset % 4 === 0)
    return new Uint32Array(blob.buffer, blob.byteOffset, words);
  const copy = new Uint32Array(words);
  for (let k = 0; k < words; k += 2) {
    copy[k] = bucketAt(blob, k * 4);
    copy[k + 1] = countAt(blob, k * 4);
  }
  return copy;
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
  const blobs = h.onlyBlobs;
  if (!blobs) return percentilesOf(h.counts, h.size, h.total, ps);
  // The blobs added into one array shared by every histogram, and cleared after.
  let counts = scratch;
  let size = 0;
  let total = 0;
  for (let j = 0; j < blobs.length; j++) {
    const words = pairWords(blobs[j]!);
    for (let k = 0; k < words.length; k += 2) {
      const bucket = words[k]! & BUCKET_MASK;
      if (bucket >= counts.length) counts = scratch = grown(counts, bucket + 1, size);
      const n = words[k + 1]!;
      counts[bucket]! += n;
      total += n;
      if (bucket >= size) size = bucket + 1;
    }
  }
  try {
    return percentilesOf(counts, size, total, ps);
  } finally {
    counts.fill(0, 0, size);
  }
}

let scratch: Float64Array = new Float64Array(MIN_BUCKETS);

function grown(counts: Float64Array, length: number, used: number): Float64Array {
  const bigger = new Float64Array(Math.max(length, counts.length * 2));
  bigger.set(counts.subarray(0, used));
  return bigger;
}

function percentilesOf(
  counts: Float64Array,
  size: number,
  total: number,
  ps: readonly number[],
): (number | null)[] {
  if (total === 0) return ps.map(() => null);
  // Both ranks around each percentile, read in one walk up the buckets (a series asks for
  // thousands of these: plain loops, as flatMap and a sort with a closure cost more than the walk).
  const ranks = new Array<number>(2 * ps.length);
  const order = new Array<number>(2 * ps.length);
  for (let k = 0; k < ps.length; k++) {
    const rank = ((total - 1) * ps[k]!) / 100;
    ranks[2 * k] = Math.floor(rank);
    ranks[2 * k + 1] = Math.ceil(rank);
  }
  // Rank order (insertion sort: a few ranks, nearly always in order already).
  for (let i = 0; i < ranks.length; i++) {
    let j = i;
    while (j > 0 && ranks[order[j - 1]!]! > ranks[i]!) {
      order[j] = order[j - 1]!;
      j--;
    }
    order[j] = i;
  }
  const values = new Array<number>(ranks.length);
  let bucket = 0;
  let below = 0;
  for (let j = 0; j < order.length; j++) {
    const i = order[j]!;
    while (bucket < size - 1 && ranks[i]! >= below + counts[bucket]!) {
      below += counts[bucket]!;
      bucket++;
    }
    values[i] = bucketValue(bucket);
  }
  const answer = new Array<number>(ps.length);
  for (let k = 0; k < ps.length; k++) {
    const rank = ((total - 1) * ps[k]!) / 100;
    const low = values[2 * k]!;
    const high = values[2 * k + 1]!;
    answer[k] = low + (high - low) * (rank - Math.floor(rank));
  }
  return answer;
}
