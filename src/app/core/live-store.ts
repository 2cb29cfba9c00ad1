import { DestroyRef, Injectable, Injector, computed, inject, signal } from '@angular/core';
import type { PermissionRequest, Session } from '../../../contract/api';
import { ApiKey } from './api-key';
import { fresherSession } from './fresher-session';
import type { LiveHost, LiveState } from './live-state';
import type { LiveSync } from './live-sync';
import { Navigator } from './routing/navigator';

export type { LiveStatus } from './live-state';

/**
 * Dashboard-wide live state from `/api/stream`: sessions and pending permission prompts.
 * What keeps it in step with the daemon (the stream, the lists, their parsing) is LiveSync, loaded
 * once the shell has started: the shell's first bundle holds the state alone.
 */
@Injectable({ providedIn: 'root' })
export class LiveStore {
  private readonly injector = inject(Injector);
  private readonly apiKey = inject(ApiKey);
  private readonly navigator = inject(Navigator);

  private readonly state: LiveState = {
    sessions: signal(new Map()),
    pending: signal(new Map()),
    imports: signal(new Map()),
    status: signal('connecting'),
    loaded: signal(false),
    error: signal(null),
  };
  /** The store as its sync sees it: the state's writers stay out of the features' reach. */
  private readonly host: LiveHost = {
    state: this.state,
    key: () => this.apiKey.key(),
    upsertSession: (session) => this.upsertSession(session),
    upsertPermission: (permission) => this.upsertPermission(permission),
    unauthorized: () => {
      this.apiKey.reject();
      this.stop();
      void this.navigator.navigate('/key');
    },
  };
  private sync: Promise<LiveSync> | null = null;
  /** The sync once loaded, to stop it at once. */
  private syncLoaded: LiveSync | null = null;
  private started = false;
  /** Bumped by each start and stop: a start still loading its sync after a stop gives up. */
  private generation = 0;

  readonly status = this.state.status.asReadonly();
  readonly loaded = this.state.loaded.asReadonly();
  readonly error = this.state.error.asReadonly();
  readonly sessions = computed(() =>
    [...this.state.sessions().values()].sort((a, b) => b.created_at.localeCompare(a.created_at)),
  );
  /** Pending prompts, oldest first. */
  readonly pending = computed(() =>
    [...this.state.pending().values()].sort((a, b) => a.created_at.localeCompare(b.created_at)),
  );
  readonly pendingCount = computed(() => this.state.pending().size);
  /** History imports by subscription, as the daemon reports them (the last one stays, done). */
  readonly imports = computed(() => [...this.state.imports().values()]);

  constructor() {
    inject(DestroyRef).onDestroy(() => this.stop());
  }

  session(id: string): Session | undefined {
    return this.state.sessions().get(id);
  }

  /** Reads the recent sessions and opens the global stream once (idempotent); called when a key is present. */
  start(): void {
    if (this.started) return;
    this.started = true;
    const generation = ++this.generation;
    this.loadSync().then(
      (sync) => {
        if (generation === this.generation) sync.start();
      },
      (error: unknown) => {
        // The chunk did not load (the daemon restarted with a new build, say): the next start retries.
        if (generation !== this.generation) return;
        this.started = false;
        this.state.status.set('offline');
        this.codeNotLoaded(error);
      },
    );
  }

  stop(): void {
    this.generation++;
    this.started = false;
    this.syncLoaded?.stop();
    this.state.status.set('connecting');
  }

  /** Loads recent sessions, ended ones included (the stream only re-sends open ones). */
  async reload(): Promise<void> {
    let sync: LiveSync;
    try {
      sync = await this.loadSync();
    } catch (error: unknown) {
      this.codeNotLoaded(error);
      return;
    }
    await sync.reload();
  }

  upsertSession(session: Session): void {
    this.state.sessions.update((current) =>
      new Map(current).set(session.id, fresherSession(current.get(session.id), session)),
    );
  }

  /** Records a permission request; one no longer pending leaves the inbox. */
  upsertPermission(permission: PermissionRequest): void {
    this.state.pending.update((current) => {
      const next = new Map(current);
      if (permission.state === 'pending') next.set(permission.id, permission);
      else next.delete(permission.id);
      return next;
    });
  }

  private codeNotLoaded(error: unknown): void {
    this.state.error.set({
      status: 0,
      code: 'client_error',
      message: $localize`The console could not load its code: ${String(error)}`,
      retryAfterSeconds: null,
    });
    this.state.loaded.set(true);
  }

  private loadSync(): Promise<LiveSync> {
    this.sync ??= import('./live-sync').then(
      (module) => (this.syncLoaded = module.liveSync(this.host, this.injector)),
      (error: unknown) => {
        this.sync = null; // Not kept: a later call tries again.
        throw error;
      },
    );
    return this.sync;
  }
}
