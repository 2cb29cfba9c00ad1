import { readClaudeOAuth } from './claude-credentials.js';
import { parseUsageAnswer, type QuotaReading } from './quota-parse.js';

export interface PollTarget {
  subscriptionId: string;
  baseUrl: string;
  /** Null: nothing to ask with, the subscription is not polled. */
  token: string | null;
  /** This target's interval, when not the poller's (the demo's loopback endpoint). */
  pollMs?: number;
}

export interface PollState {
  lastAttemptMs: number | null;
  lastError: string | null;
  nextAttemptMs: number;
  failures: number;
}

export interface PollerOptions {
  pollMs: number;
  maxBackoffMs: number;
  now: () => number;
  save: (subscriptionId: string, readings: QuotaReading[]) => void;
}

const FIRST_BACKOFF_MS = 30_000;

/** The claude.ai OAuth access token in a subscription's configuration folder, if any (PROTOCOLS §4.1). */
export function readOAuthToken(configDir: string): string | null {
  const token = readClaudeOAuth(configDir)?.['accessToken'];
  return typeof token === 'string' && token ? token : null;
}

/**
 * Asks the usage endpoint per subscription: every `pollMs` when it answers, after `retry-after`
 * on 429 (never sooner, at least the current backoff), with doubling backoff on other failures.
 */
export class QuotaPoller {
  private readonly states = new Map<string, PollState>();

  constructor(private readonly options: PollerOptions) {}

  state(subscriptionId: string): PollState | null {
    return this.states.get(subscriptionId) ?? null;
  }

  isDue(subscriptionId: string): boolean {
    const state = this.states.get(subscriptionId);
    return !state || state.nextAttemptMs <= this.options.now();
  }

  async poll(target: PollTarget): Promise<void> {
    if (!target.token) return;
    const state = this.states.get(target.subscriptionId) ?? {
      lastAttemptMs: null,
      lastError: null,
      nextAttemptMs: 0,
      failures: 0,
    };
    this.states.set(target.subscriptionId, state);
    const startedAt = this.options.now();
    state.lastAttemptMs = startedAt;
    const pollMs = target.pollMs ?? this.options.pollMs;
    state.nextAttemptMs = startedAt + pollMs; // No second request while this one runs.
    try {
      const response = await fetch(`${target.baseUrl}/api/oauth/usage`, {
        headers: {
          authorization: `Bearer ${target.token}`,
          'anthropic-beta': 'oauth-2025-04-20',
          accept: 'application/json',
        },
        signal: AbortSignal.timeout(10_000),
      });
      if (response.status === 429) {
        await response.body?.cancel();
        const backoff = this.backoff(state);
        const retryAfterMs =
          retryAfter(response.headers.get('retry-after'), this.options.now()) ?? 0;
        return this.fail(
          state,
          `429 rate limited (retry-after ${response.headers.get('retry-after') ?? 'absent'})`,
          Math.max(backoff, retryAfterMs),
        );
      }
      if (!response.ok) {
        await response.body?.cancel();
        return this.fail(state, `HTTP ${response.status}`, this.backoff(state));
      }
      const readings = parseUsageAnswer(await response.json(), this.options.now());
      this.options.save(target.subscriptionId, readings);
      state.failures = 0;
      state.lastError = null;
      state.nextAttemptMs = this.options.now() + pollMs;
    } catch (error: unknown) {
      // Network errors, timeouts and bad JSON all mean "no reading this time": back off and retry.
      this.fail(state, error instanceof Error ? error.message : String(error), this.backoff(state));
    }
  }

  private backoff(state: PollState): number {
    return Math.min(FIRST_BACKOFF_MS * 2 ** state.failures, this.options.maxBackoffMs);
  }

  private fail(state: PollState, message: string, waitMs: number): void {
    state.failures += 1;
    state.lastError = message;
    state.nextAttemptMs = this.options.now() + waitMs;
  }
}

/** `retry-after` as delta seconds or an HTTP date, in milliseconds from now. */
export function retryAfter(header: string | null, nowMs: number): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}
