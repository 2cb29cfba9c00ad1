/**
 * The launch brake: per key (an application, a subscription), a burst of `burst` launches, then
 * one every `intervalMs`. A token bucket: full at `burst`, one token back every interval.
 */
export interface BrakeOptions {
  burst: number;
  intervalMs: number;
}

/** Credit in milliseconds (one launch = one interval), so that waits stay exact integers. */
interface Bucket {
  creditMs: number;
  updatedAtMs: number;
}

export class LaunchBrake {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly options: BrakeOptions = { burst: 20, intervalMs: 3000 },
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Takes one launch from every key, or none: when any key is empty, nothing is taken and the
   * answer says how long until all of them have a launch to give.
   */
  take(keys: string[]): { allowed: true } | { allowed: false; retryAfterMs: number } {
    const buckets = this.bucketsOf(keys);
    const wait = this.waitOf(buckets);
    if (wait > 0) return { allowed: false, retryAfterMs: wait };
    for (const bucket of buckets) bucket.creditMs -= this.options.intervalMs;
    return { allowed: true };
  }

  /** How long until a launch would pass (0: now), without taking anything: shown before a launch. */
  waitMs(keys: string[]): number {
    return this.waitOf(this.bucketsOf(keys));
  }

  private bucketsOf(keys: string[]): Bucket[] {
    const at = this.now();
    return keys.map((key) => this.refill(key, at));
  }

  private waitOf(buckets: Bucket[]): number {
    return Math.max(0, ...buckets.map((bucket) => this.options.intervalMs - bucket.creditMs));
  }

  private refill(key: string, at: number): Bucket {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = { creditMs: this.options.burst * this.options.intervalMs, updatedAtMs: at };
      this.buckets.set(key, bucket);
    }
    bucket.creditMs = Math.min(
      this.options.burst * this.options.intervalMs,
      bucket.creditMs + (at - bucket.updatedAtMs),
    );
    bucket.updatedAtMs = at;
    return bucket;
  }
}
