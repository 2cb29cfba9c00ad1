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
    const at = this.now();
    const buckets = keys.map((key) => this.refill(key, at));
    const interval = this.options.intervalMs;
    const wait = Math.max(0, ...buckets.map((bucket) => interval - bucket.creditMs));
    if (wait > 0) return { allowed: false, retryAfterMs: wait };
    for (const bucket of buckets) bucket.creditMs -= interval;
    return { allowed: true };
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
