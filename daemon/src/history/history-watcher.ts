import { watch, type FSWatcher } from 'chokidar';
import { sep } from 'node:path';
import type { StoredSubscription } from '../subscriptions/subscription-repo.js';
import type { FileOutcome } from './history-importer.js';
import { transcriptReader } from './transcript-readers.js';

/**
 * A file that appears is read after this delay: a conversation Relais launches writes its
 * transcript at once, and its agent's id must be recorded first so the file is known as Relais' own.
 */
export const NEW_FILE_DELAY_MS = 1000;
/** After this long without a change a file is read once more as final (its last response closes). */
export const QUIET_MS = 1500;

interface Pending {
  running: boolean;
  again: boolean;
  timer: NodeJS.Timeout | null;
  quiet: NodeJS.Timeout | null;
}

export interface WatcherDeps {
  read: (subscription: StoredSubscription, path: string, final: boolean) => Promise<FileOutcome>;
  isKnown: (path: string) => boolean;
  onError: (path: string, error: unknown) => void;
  /**
   * The watcher is in place: what appeared between the last scan and now was taken for the
   * initial tree (not reported), so the owner rescans once.
   */
  onReady: () => void;
}

/** Follows one subscription's transcript folders while the daemon runs. */
export class SubscriptionWatcher {
  private readonly watcher: FSWatcher | null;
  private readonly pending = new Map<string, Pending>();
  private closed = false;

  constructor(
    readonly subscription: StoredSubscription,
    private readonly deps: WatcherDeps,
  ) {
    const reader = transcriptReader(subscription.agent);
    const roots = reader?.roots(subscription.config_dir) ?? [];
    if (!reader || roots.length === 0) {
      this.watcher = null;
      return;
    }
    const wanted = (path: string): boolean =>
      roots.some(
        (root) => path === root || path.startsWith(root + sep) || root.startsWith(path + sep),
      );
    // The configuration folder is watched (its transcript folder may not exist yet), everything in
    // it but the way to the transcripts is ignored. No link is followed: a planted one is heard as
    // itself, and its read is refused unless it stays in the transcript folder (openInside).
    this.watcher = watch(subscription.config_dir, {
      ignoreInitial: true,
      followSymlinks: false,
      ignored: (path: string) => path !== subscription.config_dir && !wanted(path),
    });
    const heard = (path: string): void => {
      if (reader.accepts(path) && roots.some((root) => path.startsWith(root + sep)))
        this.schedule(path);
    };
    this.watcher.on('add', heard);
    this.watcher.on('change', heard);
    this.watcher.on('error', (error) => this.deps.onError(subscription.config_dir, error));
    this.watcher.on('ready', () => {
      if (!this.closed) this.deps.onReady();
    });
  }

  private schedule(path: string): void {
    if (this.closed) return;
    let state = this.pending.get(path);
    if (!state)
      this.pending.set(path, (state = { running: false, again: false, timer: null, quiet: null }));
    if (state.quiet) clearTimeout(state.quiet);
    state.quiet = null;
    if (state.running) {
      state.again = true;
      return;
    }
    if (state.timer) return;
    const delay = this.deps.isKnown(path) ? 0 : NEW_FILE_DELAY_MS;
    state.timer = setTimeout(() => void this.run(path, false), delay);
  }

  private async run(path: string, final: boolean): Promise<void> {
    const state = this.pending.get(path);
    if (!state || this.closed) return;
    state.timer = null;
    state.running = true;
    try {
      const outcome = await this.deps.read(this.subscription, path, final);
      if (outcome.error) this.deps.onError(path, new Error(outcome.error));
    } catch (error: unknown) {
      this.deps.onError(path, error);
    } finally {
      state.running = false;
    }
    if (this.closed) return;
    if (state.again) {
      state.again = false;
      state.timer = setTimeout(() => void this.run(path, false), 0);
      return;
    }
    if (final) this.pending.delete(path);
    else state.quiet = setTimeout(() => void this.run(path, true), QUIET_MS);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const state of this.pending.values()) {
      if (state.timer) clearTimeout(state.timer);
      if (state.quiet) clearTimeout(state.quiet);
    }
    this.pending.clear();
    await this.watcher?.close();
  }
}
