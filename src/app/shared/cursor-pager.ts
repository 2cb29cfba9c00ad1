import { signal } from '@angular/core';
import { LatestAsk } from './latest-ask';
import { ApiFailure, toApiFailure } from '../core/api-error';

export interface CursorPage<T> {
  items: T[];
  next_cursor: string | null;
}

/**
 * A list read newest first in pages (`before` = the cursor of the last page): the items shown,
 * whether older ones remain, loading and error state. `merge` joins what is shown with a page.
 */
export class CursorPager<T> {
  private readonly itemsSignal = signal<T[] | null>(null);
  private readonly cursorSignal = signal<string | null>(null);
  private readonly loadingSignal = signal(false);
  private readonly errorSignal = signal<ApiFailure | null>(null);
  /** A page asked for before a reload (another filter, say) is not shown. */
  private readonly lists = new LatestAsk();
  private isCurrent = this.lists.ask();
  readonly items = this.itemsSignal.asReadonly();
  readonly cursor = this.cursorSignal.asReadonly();
  readonly loading = this.loadingSignal.asReadonly();
  readonly error = this.errorSignal.asReadonly();

  constructor(
    private readonly fetchPage: (before: string | null) => Promise<CursorPage<T>>,
    private readonly merge: (shown: T[], page: T[]) => T[] = (shown, page) => [...shown, ...page],
  ) {}

  /** From the newest again. */
  async reload(): Promise<void> {
    this.itemsSignal.set(null);
    this.cursorSignal.set(null);
    this.isCurrent = this.lists.ask();
    await this.fetch(null, this.isCurrent);
  }

  /** The page after the last one shown; once at a time (a second click would show it twice). */
  async older(): Promise<void> {
    if (this.loadingSignal()) return;
    await this.fetch(this.cursorSignal(), this.isCurrent);
  }

  /** Changes what is shown without a request (a live line, say). */
  update(change: (shown: T[]) => T[]): void {
    this.itemsSignal.update((shown) => change(shown ?? []));
  }

  private async fetch(before: string | null, current: () => boolean): Promise<void> {
    this.loadingSignal.set(true);
    this.errorSignal.set(null);
    try {
      const page = await this.fetchPage(before);
      if (!current()) return;
      this.itemsSignal.update((shown) => this.merge(before ? (shown ?? []) : [], page.items));
      this.cursorSignal.set(page.next_cursor);
    } catch (error: unknown) {
      // Shown by the page with a retry; the rows already shown stay.
      if (current()) this.errorSignal.set(toApiFailure(error));
    } finally {
      if (current()) this.loadingSignal.set(false);
    }
  }
}
