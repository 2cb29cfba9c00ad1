import type { ImportReport } from '../../../contract/api.js';
import type { Db } from '../db/database.js';
import type { EventStore } from '../events/event-store.js';
import type { Bounds } from '../fs/fence.js';
import { apiError } from '../http/errors.js';
import type { RouteTable } from '../http/route.js';
import type { GlobalHub } from '../events/global-hub.js';
import type { SessionRepo } from '../sessions/session-repo.js';
import type { StoredSubscription } from '../subscriptions/subscription-repo.js';
import { HistoryImporter } from './history-importer.js';
import { historyRoutes } from './history.routes.js';
import { SubscriptionWatcher } from './history-watcher.js';
import { SessionAnnouncer } from './session-announcer.js';

export interface HistoryDeps {
  db: Db;
  events: EventStore;
  hub: GlobalHub;
  sessions: SessionRepo;
  subscriptions: () => StoredSubscription[];
  subscription: (id: string) => StoredSubscription | null;
  log: { warn: (fields: object, message: string) => void };
  /** Follow the folders while the daemon runs (off in some tests). */
  watch: boolean;
  /** What no transcript may lead to: Relais' data folder, the zero-access circles. */
  bounds: Bounds;
}

/** Watchers are compared to the subscriptions this often (added, repointed, deleted ones). */
const REFRESH_MS = 30_000;
/** Imported sessions that changed are told to the global stream at most this often. */
const ANNOUNCE_MS = 250;

/**
 * History from day one: on start every subscription's transcripts are rescanned, then watched;
 * `POST /api/subscriptions/{id}/import` rescans one on demand.
 */
export class History {
  readonly importer: HistoryImporter;
  private readonly announcer: SessionAnnouncer;
  private readonly watchers = new Map<string, SubscriptionWatcher>();
  /** One scan at a time per subscription; a request during one waits for it, then scans. */
  private readonly scans = new Map<string, Promise<ImportReport>>();
  private refreshTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly deps: HistoryDeps) {
    this.announcer = new SessionAnnouncer((id) => {
      const session = deps.sessions.get(id);
      if (session) deps.hub.publish({ type: 'session', session });
    }, ANNOUNCE_MS);
    this.importer = new HistoryImporter({
      db: deps.db,
      events: deps.events,
      onSession: (id) => this.announcer.changedSession(id),
      onProgress: (progress) => deps.hub.publish({ type: 'import', import: progress }),
      bounds: deps.bounds,
    });
  }

  install(routes: RouteTable): this {
    historyRoutes(routes, {
      rescan: (id) => {
        const subscription = this.deps.subscription(id);
        if (!subscription) throw apiError('not_found', 'No such subscription.');
        this.refreshWatchers();
        return this.scan(subscription);
      },
    });
    return this;
  }

  /** The rescan on start, then the watchers. Never throws: errors are logged. */
  async start(): Promise<void> {
    for (const subscription of this.deps.subscriptions()) {
      if (this.closed) return;
      const report = await this.scan(subscription).catch((error: unknown) => {
        this.deps.log.warn({ err: error, subscription: subscription.id }, 'history import failed');
        return null;
      });
      if (report?.errors.length)
        this.deps.log.warn(
          { subscription: subscription.id, errors: report.errors.slice(0, 20) },
          'some transcripts could not be read',
        );
    }
    if (this.closed || !this.deps.watch) return;
    this.refreshWatchers();
    this.refreshTimer = setInterval(() => this.refreshWatchers(), REFRESH_MS);
    this.refreshTimer.unref();
  }

  scan(subscription: StoredSubscription): Promise<ImportReport> {
    const previous = this.scans.get(subscription.id) ?? Promise.resolve(null);
    const run = previous
      .catch(() => null)
      .then(() => this.importer.importSubscription(subscription))
      .finally(() => {
        if (!this.closed) this.announcer.flush();
      });
    this.scans.set(subscription.id, run);
    void run
      .catch(() => null)
      .then(() => {
        if (this.scans.get(subscription.id) === run) this.scans.delete(subscription.id);
      });
    return run;
  }

  private refreshWatchers(): void {
    if (this.closed || !this.deps.watch) return;
    const current = new Map(this.deps.subscriptions().map((s) => [s.id, s]));
    for (const [id, watcher] of this.watchers) {
      const now = current.get(id);
      if (
        now &&
        now.config_dir === watcher.subscription.config_dir &&
        now.agent === watcher.subscription.agent
      )
        continue;
      void watcher.close();
      this.watchers.delete(id);
    }
    for (const [id, subscription] of current) {
      if (this.watchers.has(id)) continue;
      this.watchers.set(
        id,
        new SubscriptionWatcher(subscription, {
          read: (sub, path, final) => this.importer.importFile(sub, path, final),
          isKnown: (path) => this.importer.isKnown(path),
          onError: (path, error) =>
            this.deps.log.warn({ err: error, path }, 'a transcript could not be read'),
          onReady: () =>
            void this.scan(subscription).catch((error: unknown) =>
              this.deps.log.warn({ err: error, subscription: id }, 'history import failed'),
            ),
        }),
      );
    }
  }

  /** Writes the imported turns still batched (before the analytics are read). */
  flush(): void {
    this.importer.flush();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.announcer.close();
    this.importer.stop();
    if (this.refreshTimer) clearInterval(this.refreshTimer);
    await Promise.all([...this.watchers.values()].map((watcher) => watcher.close()));
    this.watchers.clear();
    await Promise.all([...this.scans.values()].map((scan) => scan.catch(() => null)));
    await this.importer.idle();
    this.importer.flush();
  }
}
