import { agentReader } from '../agents/readers.js';
import type { QuotaWindow, SubscriptionQuota } from '../../../contract/usage.js';
import type { Db } from '../db/database.js';
import type { EventStore, StoredEvent } from '../events/event-store.js';
import { SessionLookup } from '../sessions/session-lookup.js';
import type { QuotaConfig } from './quota-config.js';
import type { QuotaReading } from './quota-parse.js';
import { QuotaPoller, readOAuthToken, type PollTarget } from './quota-poller.js';
import { QuotaRepo } from './quota-repo.js';

/** Windows every subscription shows, known or not. */
const ALWAYS = ['five_hour', 'seven_day'];
const TICK_MS = 1000;

interface SubscriptionRow {
  id: string;
  agent: string;
  config_dir: string;
  builtin: number;
}

export type QuotaStatus = 'fresh' | 'stale' | 'unknown';

/** Quota windows per subscription, from the usage endpoint (polled) and from the agents' streams. */
export class QuotaService {
  readonly repo: QuotaRepo;
  readonly poller: QuotaPoller;
  private timer: NodeJS.Timeout | null = null;
  private busy = false;
  private readonly listSubscriptions;
  private readonly sessionOf;

  constructor(
    db: Db,
    readonly config: QuotaConfig,
    /** Where the demo subscription's usage endpoint listens (the scripted fake). */
    private readonly demoUrl: () => string | null,
    private readonly demoToken: string,
    readonly now: () => number = Date.now,
  ) {
    this.repo = new QuotaRepo(db);
    this.poller = new QuotaPoller({
      pollMs: config.pollMs,
      maxBackoffMs: config.maxBackoffMs,
      now,
      save: (id, r) => this.repo.save(id, r),
    });
    this.listSubscriptions = db.prepare(
      'SELECT id, agent, config_dir, builtin FROM subscriptions ORDER BY created_at',
    );
    // Only a live agent's stream tells the quota as it is now: an imported transcript's lines are
    // history. A session's subscription and origin never change, so each is looked up once.
    const sessions = new SessionLookup(db);
    const known = new Map<string, { subscription_id: string; agent: string } | null>();
    this.sessionOf = (id: string) => {
      let found = known.get(id);
      if (found === undefined) {
        const launch = sessions.launchOf(id);
        found = launch ? { subscription_id: launch.subscription_id, agent: launch.agent } : null;
        known.set(id, found);
      }
      return found;
    };
  }

  attach(events: EventStore): () => void {
    return events.tap((event) => this.hear(event));
  }

  hear(event: StoredEvent): void {
    if (event.source !== 'agent') return;
    const session = this.sessionOf(event.session_id);
    if (!session) return;
    const readings = agentReader(session.agent).quotaReadings(event);
    if (readings.length) this.repo.save(session.subscription_id, readings);
  }

  start(): void {
    this.timer = setInterval(() => void this.pollDue(), TICK_MS);
    this.timer.unref();
    void this.pollDue();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Polls every subscription whose next attempt is due (one request at a time). */
  async pollDue(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      for (const target of this.targets())
        if (target.token && this.poller.isDue(target.subscriptionId))
          await this.poller.poll(target);
    } finally {
      this.busy = false;
    }
  }

  targets(): PollTarget[] {
    return (this.listSubscriptions.all() as SubscriptionRow[]).map((s) => {
      // The usage endpoint is Anthropic's; Codex's windows come from its own stream.
      if (s.agent !== 'claude') return { subscriptionId: s.id, baseUrl: '', token: null };
      if (s.builtin)
        return {
          subscriptionId: s.id,
          baseUrl: this.demoUrl() ?? '',
          token: this.demoUrl() ? this.demoToken : null,
          pollMs: Math.min(this.config.pollMs, this.config.demoPollMs),
        };
      return {
        subscriptionId: s.id,
        baseUrl: this.config.baseUrl,
        token: readOAuthToken(s.config_dir),
      };
    });
  }

  statusOf(reading: Pick<QuotaReading, 'read_at_ms' | 'resets_at_ms'>): QuotaStatus {
    const now = this.now();
    // Past its reset the window has started over: the old figure says nothing about the new one.
    if (
      now - reading.read_at_ms > this.config.staleAfterMs ||
      (reading.resets_at_ms !== null && reading.resets_at_ms <= now)
    )
      return 'stale';
    return 'fresh';
  }

  view(subscriptionId: string, polled: boolean): SubscriptionQuota {
    const readings = this.repo.latest(subscriptionId);
    const windows: QuotaWindow[] = readings.map((r) => ({
      window: r.window,
      utilization: r.utilization,
      resets_at: r.resets_at_ms === null ? null : new Date(r.resets_at_ms).toISOString(),
      read_at: new Date(r.read_at_ms).toISOString(),
      status: this.statusOf(r),
      source: r.source,
    }));
    for (const name of ALWAYS) {
      if (!windows.some((w) => w.window === name))
        windows.push({
          window: name,
          utilization: null,
          resets_at: null,
          read_at: null,
          status: 'unknown',
          source: 'none',
        });
    }
    const order = (w: QuotaWindow): number =>
      ALWAYS.includes(w.window) ? ALWAYS.indexOf(w.window) : ALWAYS.length;
    windows.sort((a, b) => order(a) - order(b) || a.window.localeCompare(b.window));
    const state = this.poller.state(subscriptionId);
    const iso = (ms: number | null | undefined): string | null =>
      ms === null || ms === undefined ? null : new Date(ms).toISOString();
    return {
      subscription_id: subscriptionId,
      windows,
      poll: {
        enabled: polled,
        last_attempt_at: iso(state?.lastAttemptMs),
        last_error: state?.lastError ?? null,
        next_attempt_at: polled ? iso(state?.nextAttemptMs ?? this.now()) : null,
      },
    };
  }

  all(): SubscriptionQuota[] {
    return this.targets().map((t) => this.view(t.subscriptionId, t.token !== null));
  }
}
