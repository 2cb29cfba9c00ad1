import { DestroyRef, Injectable, Injector, computed, inject, signal } from '@angular/core';
import { Subscription as RxSubscription } from 'rxjs';
import type {
  GlobalStreamLine,
  ImportProgress,
  PermissionRequest,
  Session,
} from '../../../contract/api';
import type { ApiFailure } from './api-error';
import { ApiKey } from './api-key';
import { fresherSession } from './fresher-session';
import { ndjsonStream } from './live-stream';
import { Navigator } from './routing/navigator';
import type { LiveWire } from './live-wire';

export type LiveStatus = 'connecting' | 'live' | 'offline';

interface Gap {
  streamed: Set<string>;
  snapshotDone: boolean;
  listRead: boolean;
}

const openGap = (): Gap => ({ streamed: new Set(), snapshotDone: false, listRead: false });

/**
 * Dashboard-wide live state from `/api/stream`: sessions and pending permission prompts.
 * The stream starts with a snapshot of open sessions and pending prompts, then every change.
 */
@Injectable({ providedIn: 'root' })
export class LiveStore {
  private readonly injector = inject(Injector);
  private readonly apiKey = inject(ApiKey);
  private readonly navigator = inject(Navigator);

  private readonly sessionMap = signal<ReadonlyMap<string, Session>>(new Map());
  private readonly pendingMap = signal<ReadonlyMap<string, PermissionRequest>>(new Map());
  private readonly importMap = signal<ReadonlyMap<string, ImportProgress>>(new Map());
  private readonly statusSignal = signal<LiveStatus>('connecting');
  private readonly loadedSignal = signal(false);
  private readonly errorSignal = signal<ApiFailure | null>(null);
  private subscription: RxSubscription | null = null;
  /** Bumped by each start and stop: a start still loading its wire after a stop gives up. */
  private generation = 0;
  private connecting = false;
  private wire: Promise<LiveWire> | null = null;
  private everConnected = false;
  /**
   * Until a list of sessions and the stream's snapshot after a connect are both in: the sessions
   * the stream has named since it connected, and whether its snapshot is complete (see closeGap).
   */
  private gap: Gap | null = openGap();

  readonly status = this.statusSignal.asReadonly();
  readonly loaded = this.loadedSignal.asReadonly();
  readonly error = this.errorSignal.asReadonly();
  readonly sessions = computed(() =>
    [...this.sessionMap().values()].sort((a, b) => b.created_at.localeCompare(a.created_at)),
  );
  /** Pending prompts, oldest first. */
  readonly pending = computed(() =>
    [...this.pendingMap().values()].sort((a, b) => a.created_at.localeCompare(b.created_at)),
  );
  readonly pendingCount = computed(() => this.pendingMap().size);
  /** History imports by subscription, as the daemon reports them (the last one stays, done). */
  readonly imports = computed(() => [...this.importMap().values()]);

  constructor() {
    inject(DestroyRef).onDestroy(() => this.stop());
  }

  session(id: string): Session | undefined {
    return this.sessionMap().get(id);
  }

  /** Opens the global stream once (idempotent); called when a key is present. */
  start(): void {
    if (this.subscription || this.connecting) return;
    this.connecting = true;
    const generation = ++this.generation;
    void this.reload();
    this.loadWire().then(
      (wire) => {
        if (generation === this.generation) this.connect(wire);
      },
      () => {
        // The chunk did not load (the daemon restarted with a new build, say): the next start retries.
        if (generation !== this.generation) return;
        this.connecting = false;
        this.statusSignal.set('offline');
      },
    );
  }

  private connect(wire: LiveWire): void {
    this.connecting = false;
    this.subscription = ndjsonStream({
      url: () => '/api/stream',
      key: () => this.apiKey.key(),
      parse: (raw) => wire.parseLine(raw),
    }).subscribe((message) => {
      if (message.kind === 'unauthorized') {
        this.apiKey.reject();
        this.stop();
        void this.navigator.navigate('/key');
      } else if (message.kind === 'status') {
        this.statusSignal.set(message.connected ? 'live' : 'offline');
        if (message.connected) this.connected();
      } else {
        this.apply(message.line);
      }
    });
  }

  stop(): void {
    this.generation++;
    this.connecting = false;
    this.everConnected = false;
    this.gap = openGap();
    this.subscription?.unsubscribe();
    this.subscription = null;
    this.statusSignal.set('connecting');
  }

  /** Loads recent sessions, ended ones included (the stream only re-sends open ones). */
  async reload(): Promise<void> {
    let wire: LiveWire | null = null;
    try {
      wire = await this.loadWire();
      const sessions = await wire.recentSessions();
      this.sessionMap.update((current) => {
        const next = new Map(current);
        for (const session of sessions)
          next.set(session.id, fresherSession(next.get(session.id), session));
        return next;
      });
      this.errorSignal.set(null);
      if (this.gap) this.gap.listRead = true;
      this.closeGap();
    } catch (error: unknown) {
      this.errorSignal.set(
        wire?.failure(error) ?? {
          status: 0,
          code: 'client_error',
          message: $localize`The console could not load its code: ${String(error)}`,
          retryAfterSeconds: null,
        },
      );
    } finally {
      this.loadedSignal.set(true);
    }
  }

  upsertSession(session: Session): void {
    this.sessionMap.update((current) =>
      new Map(current).set(session.id, fresherSession(current.get(session.id), session)),
    );
  }

  /** Records a permission request; one no longer pending leaves the inbox. */
  upsertPermission(permission: PermissionRequest): void {
    this.pendingMap.update((current) => {
      const next = new Map(current);
      if (permission.state === 'pending') next.set(permission.id, permission);
      else next.delete(permission.id);
      return next;
    });
  }

  private loadWire(): Promise<LiveWire> {
    this.wire ??= import('./live-wire').then(
      (module) => module.liveWire(this.injector),
      (error: unknown) => {
        this.wire = null; // Not kept: a later call tries again.
        throw error;
      },
    );
    return this.wire;
  }

  /**
   * A list of sessions and the stream's snapshot are two reads: a session the list showed
   * open that ended before the stream connected is in neither the snapshot (open sessions only)
   * nor its changes. Once both are in, such a session is read again on its own (seldom any: one
   * request, not a second list).
   */
  private closeGap(): void {
    const gap = this.gap;
    if (!gap?.snapshotDone || !gap.listRead) return;
    this.gap = null;
    const missed = [...this.sessionMap().values()].filter(
      (session) => session.state !== 'ended' && !gap.streamed.has(session.id),
    );
    for (const session of missed) void this.readAgain(session.id);
  }

  private async readAgain(id: string): Promise<void> {
    let wire: LiveWire | null = null;
    try {
      wire = await this.loadWire();
      this.upsertSession(await wire.session(id));
    } catch (error: unknown) {
      // Deleted meanwhile: it leaves the list. Unreachable: the row keeps what the list said.
      if (wire?.failure(error).status === 404)
        this.sessionMap.update((current) => {
          const next = new Map(current);
          next.delete(id);
          return next;
        });
    }
  }

  /** The stream (re)connected: its snapshot is about to follow. */
  private connected(): void {
    // The snapshot re-sends what is pending; forget what may have been decided meanwhile.
    this.pendingMap.set(new Map());
    // Back after an outage: sessions may have come and gone meanwhile, the list says which, and
    // the list and the new snapshot leave the same gap as the first two reads did.
    if (this.everConnected) {
      this.gap = openGap();
      void this.reload();
    }
    this.everConnected = true;
  }

  private apply(line: GlobalStreamLine): void {
    if (line.type === 'snapshot_end' && this.gap) {
      this.gap.snapshotDone = true;
      this.closeGap();
    } else if (line.type === 'session') {
      this.gap?.streamed.add(line.session.id);
      this.upsertSession(line.session);
    } else if (line.type === 'permission') this.upsertPermission(line.permission);
    else if (line.type === 'import')
      this.importMap.update((current) =>
        new Map(current).set(line.import.subscription_id, line.import),
      );
  }
}
