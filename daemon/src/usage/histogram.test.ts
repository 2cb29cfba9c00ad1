import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  bucketValue,
  countInto,
  Histogram,
  mergeIntoBlob,
  percentiles,
  type BucketCounts,
} from './histogram.js';

/** The plain definition: for each rank, walk from the first bucket. */
function referencePercentiles(h: Histogram, ps: number[]): (number | null)[] {
  const counts = Array.from(h.counts.subarray(0, h.size));
  const total = counts.reduce((a, b) => a + b, 0);
  if (total === 0) return ps.map(() => null);
  const at = (rank: number): number => {
    let seen = 0;
    for (let b = 0; b < counts.length; b++) {
      seen += counts[b]!;
      if (rank < seen) return bucketValue(b);
    }
    return bucketValue(counts.length - 1);
  };
  return ps.map((p) => {
    const rank = ((total - 1) * p) / 100;
    const low = at(Math.floor(rank));
    return low + (at(Math.ceil(rank)) - low) * (rank - Math.floor(rank));
  });
}

function random(seed: number): () => number {
  return () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
}

describe('Histogram', () => {
  it('percentiles in one walk are those of the plain definition', () => {
    const rand = random(5);
    const ps = [0, 1, 50, 95, 99, 100];
    for (let i = 0; i < 2_000; i++) {
      const h = new Histogram();
      const values = Math.floor(rand() * 40);
      for (let v = 0; v < values; v++)
        h.addValue(Math.floor(rand() ** 3 * 3_600_000), 1 + Math.floor(rand() * 3));
      assert.deepEqual(percentiles(h, ps), referencePercentiles(h, ps), `${i}`);
    }
  });

  it('blobs wait until the counts are read; percentiles read them through one shared array', () => {
    const rand = random(17);
    const pairs = (list: [number, number][], tail = 0): Buffer => {
      const blob = Buffer.alloc(list.length * 8 + tail);
      list.forEach(([bucket, n], i) => {
        blob.writeUInt32LE(bucket, i * 8);
        blob.writeUInt32LE(n, i * 8 + 4);
      });
      return blob;
    };
    const randomBlob = (): Buffer => {
      // Up to 2,000 buckets (past the array's first size), some zero counts, some out of order,
      // a few bytes past the last pair, counts past 2^31.
      const top = 1 + Math.floor(rand() * (rand() < 0.2 ? 2000 : 400));
      const list: [number, number][] = [];
      for (let b = 0; b < top; b += 1 + Math.floor(rand() * 6))
        list.push([b, rand() < 0.1 ? 0 : rand() < 0.02 ? 2 ** 31 + 7 : 1 + Math.floor(rand() * 9)]);
      if (rand() < 0.1) list.reverse();
      return pairs(list, rand() < 0.2 ? Math.floor(rand() * 8) : 0);
    };
    const ps = [0, 50, 95, 99, 100];
    for (let i = 0; i < 600; i++) {
      const blobs = Array.from({ length: Math.floor(rand() * 4) }, randomBlob);
      if (rand() < 0.1) blobs.push(Buffer.alloc(5), Buffer.alloc(0));
      const lazy = new Histogram();
      for (const blob of blobs) lazy.addBlob(blob);
      const dense = new Histogram();
      dense.addValue(1); // counts read from the start: the dense way
      for (const blob of blobs) dense.addBlob(blob);
      dense.add(1, -1);
      const kept = blobs.filter((b) => b.length >= 8);
      assert.equal(lazy.onlyBlobs?.length ?? 0, kept.length, `${i}`);
      const answer = percentiles(lazy, ps);
      assert.equal(lazy.onlyBlobs?.length ?? 0, kept.length, `${i}: percentiles read no counts`);
      assert.deepEqual(answer, percentiles(dense, ps), `${i}`);
      assert.deepEqual(answer, referencePercentiles(lazy, ps), `${i}`);
      assert.equal(lazy.onlyBlobs, null, `${i}: the counts were read`);
      assert.deepEqual(lazy.toBlob(), dense.toBlob(), `${i}`);
    }
  });

  it('mergeIntoBlob writes the bytes a Histogram writes from the blob and the counts', () => {
    const rand = random(11);
    const dense = (blob: Buffer | null, counts: BucketCounts): Buffer => {
      const h = new Histogram();
      h.addBlob(blob);
      for (const [bucket, n] of counts) h.add(bucket, n);
      return h.toBlob();
    };
    const pairs = (list: [number, number][]): Buffer => {
      const blob = Buffer.alloc(list.length * 8);
      list.forEach(([bucket, n], i) => {
        blob.writeUInt32LE(bucket, i * 8);
        blob.writeUInt32LE(n, i * 8 + 4);
      });
      return blob;
    };
    const blobs: (Buffer | null)[] = [
      null,
      Buffer.alloc(0),
      Buffer.alloc(5), // shorter than a pair
      pairs([[3, 0]]), // a zero count
      pairs([[7, 2 ** 24 + 5]]), // a count past 2^24
      pairs([
        [9, 1],
        [2, 4],
        [9, 1],
      ]), // not in bucket order
      pairs([
        [4, 1],
        [4, 2],
      ]), // a bucket twice
    ];
    for (let i = 0; i < 2_000; i++) {
      const h = new Histogram();
      const n = Math.floor(rand() * 20);
      for (let k = 0; k < n; k++) h.add(Math.floor(rand() * 600), 1 + Math.floor(rand() * 5));
      blobs.push(Buffer.concat([h.toBlob(), Buffer.alloc(Math.floor(rand() * 8))]));
    }
    for (const blob of blobs) {
      const counts: BucketCounts = new Map();
      const n = Math.floor(rand() * 6);
      for (let k = 0; k < n; k++) countInto(counts, Math.floor(rand() * 600), 1 + (k % 3));
      assert.deepEqual(mergeIntoBlob(blob, counts), dense(blob, counts));
      assert.deepEqual(mergeIntoBlob(blob, new Map()), dense(blob, new Map()));
    }
  });

  it('a blob read back holds the same counts, beyond 2^24 and across growth', () => {
    const rand = random(11);
    for (let i = 0; i < 200; i++) {
      const h = new Histogram();
      for (let v = 0; v < 30; v++)
        h.add(Math.floor(rand() * 900), 1 + Math.floor(rand() * 2 ** 31));
      const back = new Histogram();
      back.addValue(1);
      back.addBlob(h.toBlob());
      back.addBlob(h.toBlob());
      const expected = Array.from(
        h.counts.subarray(0, h.size),
        (n, b) => 2 * n + (b === 1 ? 1 : 0),
      );
      assert.deepEqual(Array.from(back.counts.subarray(0, back.size)), expected);
      assert.equal(back.total, 2 * h.total + 1);
    }
  });
});
