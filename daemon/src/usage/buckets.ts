const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const LADDER: { label: string; ms: number }[] = [
  { label: '1s', ms: 1000 },
  { label: '10s', ms: 10_000 },
  { label: '1m', ms: MINUTE },
  { label: '5m', ms: 5 * MINUTE },
  { label: '15m', ms: 15 * MINUTE },
  { label: '30m', ms: 30 * MINUTE },
  { label: '1h', ms: HOUR },
  { label: '3h', ms: 3 * HOUR },
  { label: '6h', ms: 6 * HOUR },
  { label: '12h', ms: 12 * HOUR },
  { label: '1d', ms: DAY },
  { label: '7d', ms: 7 * DAY },
  { label: '30d', ms: 30 * DAY },
  { label: '365d', ms: 365 * DAY },
];

/** The finest bucket of the ladder that keeps a span within `maxPoints` buckets (+1 for alignment). */
export function pickBucket(spanMs: number, maxPoints: number): { label: string; ms: number } {
  for (const bucket of LADDER) if (Math.ceil(spanMs / bucket.ms) + 1 <= maxPoints) return bucket;
  const ms = Math.ceil(spanMs / (maxPoints - 1) / DAY) * DAY;
  return { label: `${ms / DAY}d`, ms };
}
