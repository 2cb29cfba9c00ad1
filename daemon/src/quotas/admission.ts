import type { AdmissionFigures, AdmissionWindow } from '../../../contract/usage.js';
import type { Db } from '../db/database.js';
import { AdmissionEvidence, LOOKBACK_MS, type Evidence } from './admission-evidence.js';
import { priorRate } from './priors.js';
import type { QuotaReading } from './quota-parse.js';
import type { QuotaService } from './quota-service.js';
import { estimateRate, unitsBetween } from './rate-estimator.js';

export interface AdmissionDecision {
  admit: boolean;
  reason: 'no_reading' | 'within_threshold' | 'would_pass_threshold';
  message: string;
  figures: AdmissionFigures;
  /** Seconds until the binding window resets, when refused. */
  retry_after_seconds: number | null;
}

/**
 * Admission by reservation: before a launch, every running session and the new one reserve what a
 * session of this subscription used on average over its last 40 sessions (running ones minus what
 * they already used), converted to percent of each window at the rate the window's CHANGES show
 * (rate-estimator.ts), or the prior of the agent and plan until they show enough. What Relais used
 * after the reading was taken is added, so a stale reading is not taken for the present. Refuses when
 * the projection would pass the threshold. Never cuts a running session.
 */
export class Admission {
  private readonly evidence: AdmissionEvidence;

  constructor(
    db: Db,
    private readonly quotas: QuotaService,
    readonly threshold: number,
  ) {
    this.evidence = new AdmissionEvidence(db);
  }

  exists(subscriptionId: string): boolean {
    return this.evidence.exists(subscriptionId);
  }

  check(subscriptionId: string): AdmissionDecision {
    const now = this.quotas.now();
    const evidence = this.evidence.read(subscriptionId, now);
    const windows = this.quotas.repo
      .latest(subscriptionId)
      .filter((r) => r.resets_at_ms === null || r.resets_at_ms > now)
      .map((reading) => this.weigh(subscriptionId, reading, evidence, now))
      .sort((a, b) => b.projected - a.projected);
    const binding = windows[0];
    const figures = this.figures(evidence, binding, windows);
    if (!binding) {
      return {
        admit: true,
        reason: 'no_reading',
        message: 'No quota reading for this subscription: admitted without a check.',
        figures,
        retry_after_seconds: null,
      };
    }
    const summary = describe(binding, evidence.running.length, figures.units_per_session);
    if (binding.projected > this.threshold) {
      const resetsAt = binding.resets_at === null ? null : Date.parse(binding.resets_at);
      return {
        admit: false,
        reason: 'would_pass_threshold',
        figures,
        message: `Quota would pass ${this.threshold} %: ${summary}.`,
        retry_after_seconds:
          resetsAt === null ? null : Math.max(1, Math.ceil((resetsAt - now) / 1000)),
      };
    }
    return {
      admit: true,
      reason: 'within_threshold',
      message: `Within ${this.threshold} %: ${summary}.`,
      figures,
      retry_after_seconds: null,
    };
  }

  private weigh(
    subscriptionId: string,
    reading: QuotaReading,
    evidence: Evidence,
    now: number,
  ): AdmissionWindow {
    const estimate = estimateRate({
      readings: this.quotas.repo.readings(subscriptionId, reading.window, now - LOOKBACK_MS),
      usage: evidence.usage,
      prior: priorRate(evidence.agent, evidence.plan, reading.window),
      settledUntilMs: evidence.settledUntilMs,
    });
    const rate = estimate.percentPerUnit;
    const average = evidence.size.units;
    let unitsSince = 0;
    for (const units of unitsBetween(evidence.usage, reading.read_at_ms, now).values())
      unitsSince += units;
    const usedSince = unitsSince * rate;
    const reservedRunning = evidence.running.reduce(
      (sum, s) => sum + Math.max(0, average - s.used) * rate,
      0,
    );
    const reservedNew = average * rate;
    return {
      window: reading.window,
      utilization: reading.utilization,
      read_at: new Date(reading.read_at_ms).toISOString(),
      read_age_seconds: Math.max(0, Math.round((now - reading.read_at_ms) / 1000)),
      reading_status: this.quotas.statusOf(reading) === 'fresh' ? 'fresh' : 'stale',
      resets_at:
        reading.resets_at_ms === null ? null : new Date(reading.resets_at_ms).toISOString(),
      percent_per_million_units: rate * 1e6,
      rate_source: estimate.source,
      learned_from_sessions: estimate.source === 'learned' ? estimate.sessions : 0,
      rate_per_session: reservedNew,
      used_since_reading: usedSince,
      reserved_running: reservedRunning,
      reserved_new: reservedNew,
      projected: reading.utilization + usedSince + reservedRunning + reservedNew,
    };
  }

  private figures(
    evidence: Evidence,
    binding: AdmissionWindow | undefined,
    windows: AdmissionWindow[],
  ): AdmissionFigures {
    return {
      window: binding?.window ?? null,
      utilization: binding?.utilization ?? null,
      read_at: binding?.read_at ?? null,
      read_age_seconds: binding?.read_age_seconds ?? null,
      reading_status: binding?.reading_status ?? null,
      running_sessions: evidence.running.length,
      units_per_session: evidence.size.units,
      sessions_averaged: evidence.size.sessions,
      rate_per_session: binding?.rate_per_session ?? null,
      rate_source: binding?.rate_source ?? null,
      learned_from_sessions: binding?.learned_from_sessions ?? null,
      used_since_reading: binding?.used_since_reading ?? 0,
      reserved_running: binding?.reserved_running ?? 0,
      reserved_new: binding?.reserved_new ?? 0,
      reserved: (binding?.reserved_running ?? 0) + (binding?.reserved_new ?? 0),
      projected: binding?.projected ?? null,
      threshold: this.threshold,
      windows,
    };
  }
}

const round = (n: number): number => Math.round(n * 10) / 10;

function describe(w: AdmissionWindow, running: number, units: number): string {
  const source =
    w.rate_source === 'learned'
      ? `learned from ${w.learned_from_sessions} session${w.learned_from_sessions === 1 ? '' : 's'}`
      : 'prior';
  const since = w.used_since_reading > 0 ? ` + ${round(w.used_since_reading)} % used since` : '';
  return (
    `${w.window} at ${round(w.utilization)} % (${w.reading_status} reading, ${w.read_age_seconds} s old)${since}` +
    ` + ${round(w.reserved_running + w.reserved_new)} % reserved for ${running} running and 1 new session` +
    ` (${round(w.rate_per_session)} % a session of ${Math.round(units)} units, ${source}) = ${round(w.projected)} %`
  );
}
