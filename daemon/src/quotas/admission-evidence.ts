import type { Db } from '../db/database.js';
import { priorSessionUnits, readClaudePlan, type Plan } from './priors.js';
import type { UsageSlice } from './rate-estimator.js';

/** Sessions averaged for the size of a session, and the evidence the rate is learned from. */
export const HISTORY_SESSIONS = 40;
/** Usage is read back as far as the longest window and a day. */
export const LOOKBACK_MS = 8 * 24 * 3_600_000;
const DAY_MS = 24 * 3_600_000;

/**
 * Usage units: tokens weighted by their list price relative to input (output ×5, cache write ×1.25,
 * cache read ×0.1). The provider does not publish how windows count; this weighting is the
 * heuristic that turns "tokens a session used" into something a window's percent is learned against.
 */
const UNITS =
  '(input_tokens + 5 * output_tokens + 1.25 * cache_creation_tokens + 0.1 * cache_read_tokens)';

export interface SessionSize {
  units: number;
  /** Ended sessions averaged; 0 when the prior stands in. */
  sessions: number;
}

export interface Evidence {
  agent: string;
  plan: Plan;
  size: SessionSize;
  running: { id: string; used: number }[];
  /** Every finished turn of the subscription since the lookback, any origin: the account's usage. */
  usage: UsageSlice[];
  /** The earliest start of a turn still open: pairs of readings after it wait for its units. */
  settledUntilMs: number;
}

/** What admission reads from the database for one subscription. */
export class AdmissionEvidence {
  private readonly subscription;
  private readonly recent;
  private readonly running;
  private readonly turns;

  constructor(db: Db) {
    this.subscription = db.prepare(
      'SELECT agent, config_dir, builtin FROM subscriptions WHERE id = ?',
    );
    this.recent = db.prepare(
      `SELECT AVG(units) AS avg, COUNT(*) AS n FROM (SELECT SUM(${UNITS}) AS units FROM turns WHERE session_id IN
         (SELECT id FROM sessions WHERE subscription_id = ? AND state = 'ended' AND origin = 'relais' AND turns > 0
          ORDER BY created_at DESC LIMIT ${HISTORY_SESSIONS})
       GROUP BY session_id)`,
    );
    this.running = db.prepare(
      `SELECT s.id, s.state, s.created_at,
         COALESCE((SELECT SUM(${UNITS}) FROM turns t WHERE t.session_id = s.id), 0) AS used,
         (SELECT MAX(ended_at_ms) FROM turns t WHERE t.session_id = s.id) AS last_end
       FROM sessions s WHERE s.subscription_id = ? AND s.state != 'ended' AND s.origin = 'relais'`,
    );
    this.turns = db.prepare(
      // Bounded on the start too, so the (subscription, start) index reads only the period.
      `SELECT session_id, started_at_ms, ended_at_ms, ${UNITS} AS units FROM turns
       WHERE subscription_id = ? AND started_at_ms >= ? - ${DAY_MS} AND ended_at_ms >= ?`,
    );
  }

  exists(subscriptionId: string): boolean {
    return this.subscription.get(subscriptionId) !== undefined;
  }

  read(subscriptionId: string, now: number): Evidence {
    const sub = this.subscription.get(subscriptionId) as
      { agent: string; config_dir: string; builtin: number } | undefined;
    const agent = sub?.agent ?? 'claude';
    const plan: Plan = !sub
      ? 'unknown'
      : sub.builtin
        ? 'demo'
        : agent === 'claude'
          ? readClaudePlan(sub.config_dir)
          : 'unknown';
    const recent = this.recent.get(subscriptionId) as { avg: number | null; n: number };
    const size: SessionSize =
      recent.avg !== null && recent.n > 0
        ? { units: recent.avg, sessions: recent.n }
        : { units: priorSessionUnits(agent, plan), sessions: 0 };
    const rows = this.running.all(subscriptionId) as {
      id: string;
      state: string;
      created_at: string;
      used: number;
      last_end: number | null;
    }[];
    let settledUntilMs = Infinity;
    for (const row of rows) {
      if (row.state === 'idle') continue;
      const openSince = row.last_end ?? Date.parse(row.created_at);
      if (Number.isFinite(openSince)) settledUntilMs = Math.min(settledUntilMs, openSince);
    }
    return {
      agent,
      plan,
      size,
      running: rows.map((r) => ({ id: r.id, used: r.used })),
      usage: this.turns.all(subscriptionId, now - LOOKBACK_MS, now - LOOKBACK_MS) as UsageSlice[],
      settledUntilMs,
    };
  }
}
