import type { LaunchBrake } from '../admission/launch-brake.js';
import {
  FAILURES_BEFORE_SUSPENSION,
  type SubscriptionHealth,
} from '../admission/subscription-health.js';
import { apiError } from '../http/errors.js';

/** The deadline of a launch that names none, unless the daemon's maximum is shorter. */
const DEFAULT_TTL_SECONDS = 3600;

export interface LaunchAdmissionDeps {
  brake: LaunchBrake;
  health: SubscriptionHealth;
  /** Throws when the subscription's quota cannot take one more session. */
  admitQuota: (subscriptionId: string) => void;
  maxTtlSeconds: number;
}

/**
 * Whether a launch may start now: the subscription is not suspended, its quota can take one more
 * session, the launch brake lets this app and subscription through, the lifetime is allowed.
 */
export class LaunchAdmission {
  constructor(private readonly deps: LaunchAdmissionDeps) {}

  /** Suspension before the brake: a refused launch must not spend a launch of the brake. */
  admit(subscriptionId: string, subscriptionName: string, app: string): void {
    const refusal = this.deps.health.refusal(subscriptionId);
    if (refusal) {
      throw apiError(
        'subscription_suspended',
        `${subscriptionName} is suspended after ${FAILURES_BEFORE_SUSPENSION} failed starts in a row. Last error: ${refusal.lastError ?? 'unknown'}. Wait ${refusal.waitSeconds} s, or use Retry.`,
        { retry_after_seconds: refusal.waitSeconds, last_error: refusal.lastError },
      );
    }
    this.deps.admitQuota(subscriptionId);
    const braked = this.deps.brake.take(brakeKeys(subscriptionId, app));
    if (!braked.allowed) {
      const seconds = Math.max(1, Math.ceil(braked.retryAfterMs / 1000));
      throw apiError(
        'rate_limited',
        `Too many launches in a row for this application or subscription; try again in ${seconds} s.`,
        { retry_after_seconds: seconds },
      );
    }
  }

  /** Seconds until the brake lets a launch of this app on this subscription through (0: now). */
  waitSeconds(subscriptionId: string, app: string): number {
    return Math.ceil(this.deps.brake.waitMs(brakeKeys(subscriptionId, app)) / 1000);
  }

  /** The lifetime a launch gets: the one asked, or the default, never past the daemon's maximum. */
  ttlOf(asked: number | undefined): number {
    const max = this.deps.maxTtlSeconds;
    if (asked === undefined) return Math.min(DEFAULT_TTL_SECONDS, max);
    if (asked > max)
      throw apiError(
        'invalid_request',
        `ttl_seconds ${asked} is above this daemon's maximum of ${max} (RELAIS_MAX_TTL_SECONDS).`,
        { max_ttl_seconds: max },
      );
    return asked;
  }
}

function brakeKeys(subscriptionId: string, app: string): string[] {
  return [`app:${app}`, `subscription:${subscriptionId}`];
}
