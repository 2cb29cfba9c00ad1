/**
 * What one usage unit costs a quota window, learned from CHANGES: between two consecutive readings of
 * the same window, how much its utilization moved against the units Relais recorded between the same
 * two instants. Pure: the readings and the usage come in, an estimate goes out.
 */

export interface WindowReading {
  /** Percent, as the provider reports it. */
  utilization: number;
  resets_at_ms: number | null;
  read_at_ms: number;
}

/** A finished turn's units, spread evenly over the time it ran. */
export interface UsageSlice {
  session_id: string;
  started_at_ms: number;
  ended_at_ms: number;
  units: number;
}

export interface EstimatorOptions {
  /** The step the provider reports utilization in (whole percents). */
  quantumPercent: number;
  /** A pair further apart than this, whose window moved, may hide usage from elsewhere: unused. */
  maxGapMs: number;
  /** Two readings whose resets differ by more than this belong to different windows. */
  resetToleranceMs: number;
  /**
   * A pair moved more than this many times what its units explain at the prior (plus one step):
   * usage from elsewhere. Loose, since the prior is a guess.
   */
  ceilingFactor: number;
  /** The same, once the rate is learned: tighter, but models and caches still vary per pair. */
  learnedCeilingFactor: number;
  /** Fewer points than this attributed to Relais: the figure is only an upper bound. */
  minPoints: number;
  /** Evidence is kept from the newest pairs until this many sessions took part. */
  maxSessions: number;
  /**
   * A reading taken inside a turn shorter than this is no boundary: a short turn's units may all be
   * one model call, before or after the reading, so its neighbours' pair takes the whole turn.
   */
  shortTurnMs: number;
}

export const ESTIMATOR_DEFAULTS: EstimatorOptions = {
  quantumPercent: 1,
  maxGapMs: 30 * 60_000,
  resetToleranceMs: 5 * 60_000,
  ceilingFactor: 4,
  learnedCeilingFactor: 2,
  minPoints: 3,
  maxSessions: 40,
  shortTurnMs: 5 * 60_000,
};

export type PairVerdict = 'used' | 'outside' | 'reset' | 'gap' | 'idle' | 'pending';

export interface RateEstimate {
  /** Percent of the window per usage unit. */
  percentPerUnit: number;
  source: 'learned' | 'prior';
  /** Distinct sessions whose units are in the pairs used. */
  sessions: number;
  /** Units and points (percent) of the pairs used. */
  units: number;
  points: number;
  pairs: Record<PairVerdict, number>;
}

export interface EstimatorInput {
  readings: readonly WindowReading[];
  usage: readonly UsageSlice[];
  /** Percent per unit to fall back on until the evidence says more (priors.ts). */
  prior: number;
  /** Turns still open past this instant are not in `usage` yet: later pairs wait. */
  settledUntilMs?: number;
}

interface Candidate {
  delta: number;
  units: number;
  perSession: Map<string, number>;
}

export function estimateRate(
  input: EstimatorInput,
  options: EstimatorOptions = ESTIMATOR_DEFAULTS,
): RateEstimate {
  const pairs: Record<PairVerdict, number> = {
    used: 0,
    outside: 0,
    reset: 0,
    gap: 0,
    idle: 0,
    pending: 0,
  };
  const candidates = collectCandidates(input, options, pairs);
  // Which pairs usage from elsewhere spoiled depends on the rate, and the rate on those pairs:
  // screened first against the prior, then against the rate learned, until the set stays the same.
  let ceiling = options.ceilingFactor * input.prior;
  let accepted: Candidate[] = [];
  for (let round = 0; round < 6; round++) {
    const next = candidates.filter((c) => c.delta <= ceiling * c.units + options.quantumPercent);
    const same = next.length === accepted.length && next.every((c, i) => c === accepted[i]);
    accepted = next;
    const estimate = rateOf(accepted, input.prior, options);
    if (same) break;
    ceiling =
      estimate.source === 'learned'
        ? options.learnedCeilingFactor * estimate.percentPerUnit
        : options.ceilingFactor * input.prior;
  }
  const estimate = rateOf(accepted, input.prior, options);
  pairs.used = accepted.length;
  pairs.outside += candidates.length - accepted.length;
  const sessions = new Set<string>();
  for (const c of accepted) for (const id of c.perSession.keys()) sessions.add(id);
  return { ...estimate, sessions: sessions.size, pairs };
}

/** Pairs of consecutive readings, newest first, until `maxSessions` sessions took part. */
function collectCandidates(
  input: EstimatorInput,
  options: EstimatorOptions,
  pairs: Record<PairVerdict, number>,
): Candidate[] {
  const usage = new UsageIndex(input.usage);
  const readings = [...input.readings]
    .filter((r) => Number.isFinite(r.utilization) && Number.isFinite(r.read_at_ms))
    .sort((a, b) => a.read_at_ms - b.read_at_ms);
  const settled = input.settledUntilMs ?? Infinity;
  const seen = new Set<string>();
  const candidates: Candidate[] = [];
  for (const [a, b] of boundaryPairs(readings, usage, options.shortTurnMs)) {
    if (seen.size >= options.maxSessions) break;
    if (b.read_at_ms === a.read_at_ms) continue;
    const delta = b.utilization - a.utilization;
    if (b.read_at_ms > settled) pairs.pending++;
    else if (!sameWindow(a, b, options) || delta < -options.quantumPercent) pairs.reset++;
    else if (b.read_at_ms - a.read_at_ms > options.maxGapMs && delta > options.quantumPercent)
      pairs.gap++;
    else {
      const perSession = usage.between(a.read_at_ms, b.read_at_ms);
      const units = [...perSession.values()].reduce((sum, u) => sum + u, 0);
      if (units <= 0) {
        // Moved with nothing of Relais running: someone else's use. Still: no news about the rate.
        if (delta > options.quantumPercent) pairs.outside++;
        else pairs.idle++;
        continue;
      }
      candidates.push({ delta, units, perSession });
      for (const id of perSession.keys()) seen.add(id);
    }
  }
  return candidates;
}

/** Consecutive readings, newest pair first, skipping those taken inside a short turn (lazily). */
function* boundaryPairs(
  readings: readonly WindowReading[],
  usage: UsageIndex,
  shortTurnMs: number,
): Generator<[WindowReading, WindowReading]> {
  const boundary = (r: WindowReading): boolean => !usage.insideShortTurn(r.read_at_ms, shortTurnMs);
  let newer: WindowReading | null = null;
  for (let i = readings.length - 1; i >= 0; i--) {
    const reading = readings[i]!;
    if (!boundary(reading)) continue;
    if (newer) yield [reading, newer];
    newer = reading;
  }
}

function sameWindow(a: WindowReading, b: WindowReading, options: EstimatorOptions): boolean {
  // No reset time on either: only a drop in utilization tells a new window (checked by the caller).
  if (a.resets_at_ms === null || b.resets_at_ms === null) return a.resets_at_ms === b.resets_at_ms;
  // Past its reset, the window the first reading described is over, whatever the second says.
  if (a.resets_at_ms <= b.read_at_ms) return false;
  return Math.abs(a.resets_at_ms - b.resets_at_ms) <= options.resetToleranceMs;
}

/** The usage sorted by end, to find the turns near an instant without reading them all. */
class UsageIndex {
  private readonly byEnd: UsageSlice[];
  private readonly longest: number;

  constructor(usage: readonly UsageSlice[]) {
    this.byEnd = usage
      .filter(
        (s) => s.units > 0 && Number.isFinite(s.started_at_ms) && Number.isFinite(s.ended_at_ms),
      )
      .sort((a, b) => a.ended_at_ms - b.ended_at_ms);
    this.longest = this.byEnd.reduce((max, s) => Math.max(max, s.ended_at_ms - s.started_at_ms), 0);
  }

  /** The slices that may overlap (from, to]. */
  private near(from: number, to: number): UsageSlice[] {
    let low = 0;
    let high = this.byEnd.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.byEnd[mid]!.ended_at_ms < from) low = mid + 1;
      else high = mid;
    }
    const out: UsageSlice[] = [];
    for (let i = low; i < this.byEnd.length; i++) {
      const slice = this.byEnd[i]!;
      if (slice.ended_at_ms - this.longest > to) break;
      out.push(slice);
    }
    return out;
  }

  between(from: number, to: number): Map<string, number> {
    return unitsBetween(this.near(from, to), from, to);
  }

  insideShortTurn(at: number, shortMs: number): boolean {
    return this.near(at, at).some(
      (s) =>
        s.started_at_ms < at && at < s.ended_at_ms && s.ended_at_ms - s.started_at_ms <= shortMs,
    );
  }
}

/** Units each session recorded in (from, to], a turn's units spread evenly over its duration. */
export function unitsBetween(
  usage: readonly UsageSlice[],
  from: number,
  to: number,
): Map<string, number> {
  const out = new Map<string, number>();
  for (const slice of usage) {
    if (!(slice.units > 0)) continue;
    let share: number;
    if (slice.ended_at_ms <= slice.started_at_ms) {
      share = slice.ended_at_ms > from && slice.ended_at_ms <= to ? slice.units : 0;
    } else {
      const overlap = Math.min(to, slice.ended_at_ms) - Math.max(from, slice.started_at_ms);
      share = overlap > 0 ? (slice.units * overlap) / (slice.ended_at_ms - slice.started_at_ms) : 0;
    }
    if (share > 0) out.set(slice.session_id, (out.get(slice.session_id) ?? 0) + share);
  }
  return out;
}

/**
 * The ratio of sums (each pair's rounding cancels against its neighbour's). When the window moved
 * fewer than `minPoints`, one step of rounding is most of the figure: only the upper bound
 * (points + one step) ÷ units is known, and it is used only when below the prior.
 */
function rateOf(
  accepted: readonly Candidate[],
  prior: number,
  options: EstimatorOptions,
): Pick<RateEstimate, 'percentPerUnit' | 'source' | 'units' | 'points'> {
  const units = accepted.reduce((sum, c) => sum + c.units, 0);
  const points = accepted.reduce((sum, c) => sum + c.delta, 0);
  if (units <= 0) return { percentPerUnit: prior, source: 'prior', units, points };
  if (points >= options.minPoints)
    return { percentPerUnit: points / units, source: 'learned', units, points };
  const upper = (Math.max(0, points) + options.quantumPercent) / units;
  return upper < prior
    ? { percentPerUnit: upper, source: 'learned', units, points }
    : { percentPerUnit: prior, source: 'prior', units, points };
}
