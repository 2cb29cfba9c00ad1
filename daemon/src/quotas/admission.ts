import type { AdmissionFigures } from '../../../contract/usage.js';
import type { Db } from '../db/database.js';
import type { QuotaService } from './quota-service.js';

export interface AdmissionDecision {
  admit: boolean;
  /** no_reading | within_threshold | would_pass_threshold */
  reason: 'no_reading' | 'within_threshold' | 'would_pass_threshold';
  message: string;
  figures: AdmissionFigures;
  /** Seconds until the binding window resets, when refused. */
  retry_after_seconds: number | null;
}

const HOUR = 3_600_000;
const LENGTH_MS: Record<string, number> = { five_hour: 5 * HOUR };
const windowLength = (name: string): number | null =>
  LENGTH_MS[name] ?? (name.startsWith('seven_day') ? 168 * HOUR : null);
const HISTORY = 40;

/**
 * Usage units: tokens weighted by their list price relative to input (output ×5, cache write ×1.25,
 * cache read ×0.1). The provider does not publish how windows count; this weighting is the
 * heuristic that turns "tokens a session used" into "percent of a window it will take".
 */
const UNITS =
  '(input_tokens + 5 * output_tokens + 1.25 * cache_creation_tokens + 0.1 * cache_read_tokens)';

/**
 * Admission by reservation: before a launch, every running session and the new one reserve what a
 * session of this subscription used on average over its last 40 sessions (running ones minus what
 * they already used, which the reading includes), converted to percent of each window at the rate
 * the window itself shows (utilization ÷ units recorded since the window began). Refuses when the
 * latest reading plus reservations would pass the threshold. Never cuts a running session.
 */
export class Admission {
  private readonly recent;
  private readonly running;
  private readonly unitsSince;

  constructor(
    db: Db,
    private readonly quotas: QuotaService,
    readonly threshold: number,
  ) {
    this.recent = db.prepare(
      `SELECT AVG(units) AS avg FROM (SELECT SUM(${UNITS}) AS units FROM turns WHERE session_id IN
         (SELECT id FROM sessions WHERE subscription_id = ? AND state = 'ended' AND turns > 0 ORDER BY created_at DESC LIMIT ${HISTORY})
       GROUP BY session_id)`,
    );
    this.running = db.prepare(
      `SELECT s.id, COALESCE((SELECT SUM(${UNITS}) FROM turns t WHERE t.session_id = s.id), 0) AS used
       FROM sessions s WHERE s.subscription_id = ? AND s.state != 'ended'`,
    );
    this.unitsSince = db.prepare(
      `SELECT COALESCE(SUM(${UNITS}), 0) AS units FROM turns WHERE subscription_id = ? AND started_at_ms >= ?`,
    );
  }

  check(subscriptionId: string): AdmissionDecision {
    const now = this.quotas.now();
    const average = (this.recent.get(subscriptionId) as { avg: number | null }).avg;
    const running = this.running.all(subscriptionId) as { id: string; used: number }[];
    const readings = this.quotas.repo
      .latest(subscriptionId)
      .filter((r) => r.resets_at_ms === null || r.resets_at_ms > now);
    const base: AdmissionFigures = {
      window: null,
      utilization: null,
      read_at: null,
      running_sessions: running.length,
      rate_per_session: null,
      reserved: 0,
      projected: null,
      threshold: this.threshold,
    };
    if (readings.length === 0) {
      return {
        admit: true,
        reason: 'no_reading',
        message: 'No quota reading for this subscription: admitted without a check.',
        figures: base,
        retry_after_seconds: null,
      };
    }
    let binding: AdmissionFigures & { resets_at_ms: number | null } = {
      ...base,
      resets_at_ms: null,
    };
    for (const reading of readings) {
      const length = windowLength(reading.window);
      let rate: number | null = null;
      if (length !== null && average !== null && reading.resets_at_ms !== null) {
        const inWindow = (
          this.unitsSince.get(subscriptionId, reading.resets_at_ms - length) as { units: number }
        ).units;
        if (inWindow > 0) rate = (average * reading.utilization) / inWindow;
      }
      const perUnit = rate === null || average === null || average === 0 ? 0 : rate / average;
      const reserved =
        rate === null
          ? 0
          : rate + running.reduce((sum, s) => sum + Math.max(0, average! - s.used) * perUnit, 0);
      const projected = reading.utilization + reserved;
      if (binding.projected === null || projected > binding.projected) {
        binding = {
          ...base,
          window: reading.window,
          utilization: reading.utilization,
          read_at: new Date(reading.read_at_ms).toISOString(),
          rate_per_session: rate,
          reserved,
          projected,
          resets_at_ms: reading.resets_at_ms,
        };
      }
    }
    const { resets_at_ms: resetsAt, ...figures } = binding;
    const status = this.quotas.statusOf({
      read_at_ms: Date.parse(figures.read_at!),
      resets_at_ms: resetsAt,
    });
    const summary = `${figures.window} at ${round(figures.utilization!)} % (${status} reading) + ${round(figures.reserved)} % reserved for ${running.length} running and 1 new session = ${round(figures.projected!)} %`;
    if (figures.projected! > this.threshold) {
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
}

const round = (n: number): number => Math.round(n * 10) / 10;
