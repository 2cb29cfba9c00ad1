import { statSync } from 'node:fs';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { ImportProgress } from '../../../contract/api.js';
import type { SubscriptionQuota } from '../../../contract/usage.js';
import type { Db } from '../db/database.js';
import type { EventStore } from '../events/event-store.js';
import type { GlobalHub } from '../events/global-hub.js';
import type { LabelCaps } from './label-cap.js';
import { StorageBytes } from './storage-bytes.js';

/** What the live-state families read: all of it kept in memory or in a few indexed rows. */
export interface StateSources {
  db: Db;
  databaseFile: string;
  events: EventStore;
  hub: GlobalHub;
  subscriptionIds(): string[];
  /** Whether a subscription is suspended after failed starts, and how many failed in a row. */
  health(subscriptionId: string): { suspended: boolean; failedStarts: number };
  /** How long until the launch brake lets a launch of this subscription through, in ms. */
  brakeWaitMs(subscriptionId: string): number;
  quotas(): SubscriptionQuota[];
}

const LIVE_STATES = ['starting', 'idle', 'working', 'waiting', 'stopping'];
/** A person answers a prompt in seconds to many minutes (the timeout is ten by default). */
const WAIT_BUCKETS = [1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1800, 3600];

/** Sessions, launches, prompts, quotas, brake, queue, events, storage and imports. */
export function stateMetrics(
  registry: Registry,
  sources: StateSources,
  caps: LabelCaps,
): () => void {
  sessionGauge(registry, sources.db, caps);
  waitingGauges(registry, sources.db);
  subscriptionGauges(registry, sources, caps);
  quotaGauges(registry, sources, caps);
  const storage = storageGauge(registry, sources);
  const untapEvents = eventCounters(registry, sources.events, caps);
  const unsubscribe = hubMetrics(registry, sources.hub, caps);
  return () => {
    untapEvents();
    unsubscribe();
    storage.stop();
  };
}

function sessionGauge(registry: Registry, db: Db, caps: LabelCaps): void {
  const liveSessions = db.prepare(
    `SELECT state, agent, subscription_id, app, COUNT(*) AS n FROM sessions
     WHERE state IN (${LIVE_STATES.map(() => '?').join(', ')}) GROUP BY state, agent, subscription_id, app`,
  );
  new Gauge({
    name: 'relais_sessions',
    help: 'Sessions not ended, by state, agent, subscription and app',
    labelNames: ['state', 'agent', 'subscription', 'app'],
    registers: [registry],
    collect() {
      this.reset();
      const rows = liveSessions.all(...LIVE_STATES) as {
        state: string;
        agent: string;
        subscription_id: string;
        app: string;
        n: number;
      }[];
      for (const row of rows) {
        const labels = {
          state: row.state,
          agent: caps.agent.of(row.agent),
          subscription: caps.subscription.of(row.subscription_id),
          app: caps.app.of(row.app),
        };
        this.inc(labels, row.n);
      }
    },
  });
}

/** Prompts waiting for a person, and prompts queued behind a working session. */
function waitingGauges(registry: Registry, db: Db): void {
  const pending = db
    .prepare("SELECT COUNT(*) FROM permission_requests WHERE state = 'pending'")
    .pluck();
  new Gauge({
    name: 'relais_permission_prompts_waiting',
    help: 'Permission prompts waiting for a person',
    registers: [registry],
    collect() {
      this.set(pending.get() as number);
    },
  });
  const queued = db.prepare('SELECT COUNT(*) FROM queue_entries').pluck();
  new Gauge({
    name: 'relais_queued_prompts',
    help: 'Prompts queued behind a working session',
    registers: [registry],
    collect() {
      this.set(queued.get() as number);
    },
  });
}

function storageGauge(registry: Registry, sources: StateSources): StorageBytes {
  const storage = new StorageBytes(sources.db);
  new Gauge({
    name: 'relais_storage_bytes',
    help: 'Bytes of the database by category (measured at most every ten minutes) and of its files',
    labelNames: ['category'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [category, bytes] of storage.categories()) this.set({ category }, bytes);
      this.set({ category: 'database_file' }, sizeOf(sources.databaseFile));
      this.set({ category: 'wal_file' }, sizeOf(`${sources.databaseFile}-wal`));
    },
  });
  return storage;
}

function subscriptionGauges(registry: Registry, sources: StateSources, caps: LabelCaps): void {
  const registers = [registry];
  const perSubscription = (gauge: Gauge, value: (id: string) => number): void => {
    gauge.reset();
    for (const id of sources.subscriptionIds())
      gauge.set({ subscription: caps.subscription.of(id) }, value(id));
  };
  new Gauge({
    name: 'relais_subscription_suspended',
    help: '1 while a subscription is suspended after failed starts in a row, else 0',
    labelNames: ['subscription'],
    registers,
    collect() {
      perSubscription(this, (id) => (sources.health(id).suspended ? 1 : 0));
    },
  });
  new Gauge({
    name: 'relais_subscription_failed_starts',
    help: 'Failed starts in a row of a subscription',
    labelNames: ['subscription'],
    registers,
    collect() {
      perSubscription(this, (id) => sources.health(id).failedStarts);
    },
  });
  new Gauge({
    name: 'relais_launch_brake_wait_seconds',
    help: "Seconds until the launch brake lets a subscription's next launch through (0: now)",
    labelNames: ['subscription'],
    registers,
    collect() {
      perSubscription(this, (id) => sources.brakeWaitMs(id) / 1000);
    },
  });
}

function quotaGauges(registry: Registry, sources: StateSources, caps: LabelCaps): void {
  const quotaGauge = (name: string, help: string, value: (w: QuotaReading) => number): void => {
    new Gauge({
      name,
      help,
      labelNames: ['subscription', 'window'],
      registers: [registry],
      collect() {
        this.reset();
        for (const quota of sources.quotas())
          for (const w of quota.windows) {
            if (w.utilization === null || w.read_at === null) continue;
            const labels = {
              subscription: caps.subscription.of(quota.subscription_id),
              window: caps.window.of(w.window),
            };
            this.set(
              labels,
              value({ utilization: w.utilization, readAtMs: Date.parse(w.read_at) }),
            );
          }
      },
    });
  };
  quotaGauge(
    'relais_quota_window_used_ratio',
    'Latest reading of the share of a quota window used (1 = full; may pass 1)',
    (w) => w.utilization / 100,
  );
  quotaGauge('relais_quota_reading_age_seconds', "Age of a quota window's latest reading", (w) =>
    Math.max(0, (Date.now() - w.readAtMs) / 1000),
  );
}

interface QuotaReading {
  utilization: number;
  readAtMs: number;
}

/** Events ingested by source, and launches, heard from the event store as they commit. */
function eventCounters(registry: Registry, events: EventStore, caps: LabelCaps): () => void {
  const ingested = new Counter({
    name: 'relais_events_ingested_total',
    help: 'Events written to the store since the daemon started, by source',
    labelNames: ['source'],
    registers: [registry],
  });
  const launches = new Counter({
    name: 'relais_session_launches_total',
    help: 'Sessions launched since the daemon started',
    labelNames: ['agent', 'subscription', 'app'],
    registers: [registry],
  });
  return events.tap((event) => {
    ingested.inc({ source: event.source });
    if (event.source !== 'relais' || !event.data.includes('"session_created"')) return;
    const line = JSON.parse(event.data) as Record<string, unknown>;
    if (line['subtype'] !== 'session_created') return;
    launches.inc({
      agent: caps.agent.of(String(line['agent'] ?? '')),
      subscription: caps.subscription.of(String(line['subscription_id'] ?? '')),
      app: caps.app.of(String(line['app'] ?? '')),
    });
  });
}

/** Prompt answer times and import progress, heard from the dashboard-wide hub. */
function hubMetrics(registry: Registry, hub: GlobalHub, caps: LabelCaps): () => void {
  const registers = [registry];
  const wait = new Histogram({
    name: 'relais_permission_answer_seconds',
    help: 'Time from a permission prompt to its answer (a person, or the timeout), since the daemon started',
    labelNames: ['outcome'],
    buckets: WAIT_BUCKETS,
    registers,
  });
  const imports = new Map<string, ImportProgress>();
  const importGauge = (name: string, help: string, value: (p: ImportProgress) => number): void => {
    new Gauge({
      name,
      help,
      labelNames: ['subscription'],
      registers,
      collect() {
        this.reset();
        for (const [subscription, progress] of imports) this.set({ subscription }, value(progress));
      },
    });
  };
  importGauge('relais_import_running', '1 while a history import runs', (p) =>
    p.state === 'running' ? 1 : 0,
  );
  importGauge(
    'relais_import_read_bytes',
    'Bytes read by the latest history import',
    (p) => p.bytes_done,
  );
  importGauge(
    'relais_import_size_bytes',
    'Bytes the latest history import has to read',
    (p) => p.bytes_total,
  );
  importGauge(
    'relais_import_files_read',
    'Files read by the latest history import',
    (p) => p.files_done,
  );
  importGauge(
    'relais_import_files',
    'Files the latest history import has to read',
    (p) => p.files_total,
  );
  return hub.observe((line) => {
    if (line.type === 'import')
      imports.set(caps.subscription.of(line.import.subscription_id), line.import);
    if (line.type !== 'permission') return;
    const { state, created_at: created, decided_at: decided } = line.permission;
    if (state === 'pending' || !decided) return;
    const seconds = Math.max(0, (Date.parse(decided) - Date.parse(created)) / 1000);
    wait.observe({ outcome: state }, seconds);
  });
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
