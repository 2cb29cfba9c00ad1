import type { Db } from '../db/database.js';
import { nowIso } from '../ids.js';

export const FAILURES_BEFORE_SUSPENSION = 3;
const FIRST_WAIT_SECONDS = 60;
const MAX_WAIT_SECONDS = 3600;

export interface HealthStatus {
  status: 'active' | 'suspended';
  consecutive_failed_starts: number;
  last_error: string | null;
  suspended_at: string | null;
  /** The wait the next refused launch will suggest. */
  next_wait_seconds: number;
}

interface HealthRow {
  consecutive_failures: number;
  last_error: string | null;
  suspended_at: string | null;
  next_wait_seconds: number;
}

/**
 * Failed starts per subscription: three in a row suspend it; while suspended, each refused
 * launch suggests a wait that doubles (60 s up to an hour); an answer or a retry reopens it.
 */
export class SubscriptionHealth {
  constructor(private readonly db: Db) {}

  status(subscriptionId: string): HealthStatus {
    const row = this.row(subscriptionId);
    return {
      status: row.suspended_at ? 'suspended' : 'active',
      consecutive_failed_starts: row.consecutive_failures,
      last_error: row.last_error,
      suspended_at: row.suspended_at,
      next_wait_seconds: row.next_wait_seconds,
    };
  }

  /** Returns true when this failure suspends the subscription. */
  recordFailure(subscriptionId: string, errorLine: string): boolean {
    const row = this.row(subscriptionId);
    const failures = row.consecutive_failures + 1;
    const suspendNow = !row.suspended_at && failures >= FAILURES_BEFORE_SUSPENSION;
    this.save(subscriptionId, {
      ...row,
      consecutive_failures: failures,
      last_error: errorLine,
      suspended_at: suspendNow ? nowIso() : row.suspended_at,
    });
    return suspendNow;
  }

  /** Returns true when this answer reopened a suspended subscription. */
  recordSuccess(subscriptionId: string): boolean {
    const row = this.row(subscriptionId);
    if (row.consecutive_failures === 0 && !row.suspended_at) return false;
    this.save(subscriptionId, {
      consecutive_failures: 0,
      last_error: row.last_error,
      suspended_at: null,
      next_wait_seconds: FIRST_WAIT_SECONDS,
    });
    return row.suspended_at !== null;
  }

  /** For a launch: null when allowed, else the wait to suggest (and the next one doubles). */
  refusal(subscriptionId: string): { waitSeconds: number; lastError: string | null } | null {
    const row = this.row(subscriptionId);
    if (!row.suspended_at) return null;
    this.save(subscriptionId, {
      ...row,
      next_wait_seconds: Math.min(MAX_WAIT_SECONDS, row.next_wait_seconds * 2),
    });
    return { waitSeconds: row.next_wait_seconds, lastError: row.last_error };
  }

  retry(subscriptionId: string): void {
    const row = this.row(subscriptionId);
    this.save(subscriptionId, {
      consecutive_failures: 0,
      last_error: row.last_error,
      suspended_at: null,
      next_wait_seconds: FIRST_WAIT_SECONDS,
    });
  }

  private row(subscriptionId: string): HealthRow {
    return (
      (this.db
        .prepare(
          'SELECT consecutive_failures, last_error, suspended_at, next_wait_seconds FROM subscription_health WHERE subscription_id = ?',
        )
        .get(subscriptionId) as HealthRow | undefined) ?? {
        consecutive_failures: 0,
        last_error: null,
        suspended_at: null,
        next_wait_seconds: FIRST_WAIT_SECONDS,
      }
    );
  }

  private save(subscriptionId: string, row: HealthRow): void {
    this.db
      .prepare(
        `INSERT INTO subscription_health (subscription_id, consecutive_failures, last_error, suspended_at, next_wait_seconds)
         VALUES (@id, @consecutive_failures, @last_error, @suspended_at, @next_wait_seconds)
         ON CONFLICT(subscription_id) DO UPDATE SET consecutive_failures = excluded.consecutive_failures,
           last_error = excluded.last_error, suspended_at = excluded.suspended_at, next_wait_seconds = excluded.next_wait_seconds`,
      )
      .run({ id: subscriptionId, ...row });
  }
}
