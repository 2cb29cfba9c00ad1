import { DestroyRef, Injectable, inject, signal } from '@angular/core';
import { answerKeyAsks, askOtherTabs } from './key-share';
import { STORAGE_KEY, keyFromFragment, storedKey } from './key-at-start';

export { keyAtStart, keyFromFragment } from './key-at-start';

/** Where the key is kept: this tab only (default) or this browser (an explicit choice). */
export type KeyPersistence = 'session' | 'local';

/**
 * The API key: captured once from the URL fragment (which browsers never send to a server),
 * kept in session storage unless the person asks to remember it, and removed from the address bar.
 */
@Injectable({ providedIn: 'root' })
export class ApiKey {
  private readonly current = signal<string | null>(null);
  private readonly rejectedKey = signal(false);
  private readonly rememberedSignal = signal(false);

  readonly key = this.current.asReadonly();
  /** True when the key is kept in this browser's local storage (the person chose it). */
  readonly remembered = this.rememberedSignal.asReadonly();
  /** True after the daemon answered 401 with the stored key. */
  readonly rejected = this.rejectedKey.asReadonly();

  constructor() {
    this.current.set(this.captureFromLocation() ?? storedKey());
    this.rememberedSignal.set(this.isRemembered());
    const stop = answerKeyAsks(() => (this.rejectedKey() ? null : this.current()));
    inject(DestroyRef).onDestroy(stop);
  }

  /**
   * Without a key, takes the one another open tab of this console holds (a link opened in a new
   * tab), kept in this tab's storage like a captured one; resolves whether a key is now held.
   */
  async takeFromOtherTabs(waitMs: number): Promise<boolean> {
    if (this.current()) return true;
    const key = await askOtherTabs(waitMs);
    if (key && !this.current()) this.use(key, 'session');
    return this.current() !== null;
  }

  /** Moves the current key between this tab (session storage) and this browser (local storage). */
  setRemembered(remember: boolean): void {
    const key = this.current();
    if (key) this.use(key, remember ? 'local' : 'session');
  }

  /** Keeps a pasted or captured key. */
  use(key: string, persistence: KeyPersistence = 'session'): void {
    const trimmed = key.trim();
    if (!trimmed) return;
    this.clearStored();
    this.storage(persistence)?.setItem(STORAGE_KEY, trimmed);
    this.current.set(trimmed);
    this.rejectedKey.set(false);
    this.rememberedSignal.set(persistence === 'local');
  }

  /** Marks the key as refused by the daemon (401). */
  reject(): void {
    this.rejectedKey.set(true);
  }

  forget(): void {
    this.clearStored();
    this.current.set(null);
    this.rememberedSignal.set(false);
  }

  isRemembered(): boolean {
    return this.storage('local')?.getItem(STORAGE_KEY) != null;
  }

  private captureFromLocation(): string | null {
    if (typeof location === 'undefined') return null;
    const key = keyFromFragment(location.hash);
    if (!key) return null;
    const remembered = this.isRemembered();
    this.clearStored();
    this.storage(remembered ? 'local' : 'session')?.setItem(STORAGE_KEY, key);
    // The key must not stay in the address bar, the history entry or a bookmark.
    history.replaceState(history.state, '', location.pathname + location.search);
    return key;
  }

  private clearStored(): void {
    this.storage('session')?.removeItem(STORAGE_KEY);
    this.storage('local')?.removeItem(STORAGE_KEY);
  }

  private storage(kind: KeyPersistence): Storage | null {
    try {
      return kind === 'local' ? localStorage : sessionStorage;
    } catch {
      // Storage can be disabled by the browser's privacy settings; the key then lives in memory only.
      return null;
    }
  }
}
