/**
 * A seeded pseudo-random generator (mulberry32) in [0, 1): the same seed gives the same data, so a
 * randomized test or a benchmark's seeded file is the same on every run.
 */
export function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
