import { DestroyRef, Injectable, Type, computed, inject, signal } from '@angular/core';
import { ApiKey } from '../api-key';
import { PageTitle } from '../page-title';
import { returnTo } from '../return-url';
import { HOME, PAGE_ROUTES, RouteMatch, matchRoute } from './page-route';
import {
  ConsoleUrl,
  QueryChange,
  consoleHref,
  mergeQuery,
  parseConsoleUrl,
  writeQuery,
} from './url';

/** A page on screen: the route it matched, its loaded component and the address it was opened at. */
export interface ShownPage extends RouteMatch {
  component: Type<unknown>;
  address: ConsoleUrl;
}

type HistoryStep = 'push' | 'replace' | 'pop';

/** How long a tab without a key waits for another tab to hand it over (they answer in a few ms). */
const KEY_FROM_OTHER_TABS_MS = 200;

/** Where an address leads, once the bare `/`, unknown pages and the key check are applied. */
interface Destination {
  match: RouteMatch;
  address: ConsoleUrl;
  redirected: boolean;
}

/**
 * The console's navigation: which page the address shows, the history entries it writes, and
 * links. A navigation loads its page before the address changes; when several overlap, the
 * last one asked for wins.
 */
@Injectable({ providedIn: 'root' })
export class Navigator {
  private readonly routes = inject(PAGE_ROUTES);
  private readonly apiKey = inject(ApiKey);
  private readonly pageTitle = inject(PageTitle);
  private readonly destroyRef = inject(DestroyRef);
  private readonly shownSignal = signal<ShownPage | null>(null);
  private readonly arrivalsSignal = signal(0);
  private latest = 0;
  private started = false;

  readonly shown = this.shownSignal.asReadonly();
  /** Counts the navigations that ended on a page, a link to the page already shown included. */
  readonly arrivals = this.arrivalsSignal.asReadonly();
  /** The path and query shown (`/audit?kind=rules_change`), before the first page: the address bar's. */
  readonly url = computed(
    () => this.shownSignal()?.address.url ?? location.pathname + location.search,
  );
  /** The path alone, as the address writes it: `/sessions/ses_1`. */
  readonly path = computed(() => this.url().split('?', 1)[0]);

  /** Shows the page of the address bar and follows the browser's back and forward buttons. */
  start(): void {
    if (this.started) return;
    this.started = true;
    const followHistory = () => void this.go(currentAddress(), 'pop');
    window.addEventListener('popstate', followHistory);
    this.destroyRef.onDestroy(() => window.removeEventListener('popstate', followHistory));
    void this.showFirstPage();
  }

  private async showFirstPage(): Promise<void> {
    // Only a tab without a key waits: a link opened in a new tab takes the key of the tab it
    // came from rather than asking the person for it again.
    if (!this.apiKey.key()) await this.apiKey.takeFromOtherTabs(KEY_FROM_OTHER_TABS_MS);
    await this.go(currentAddress(), 'replace');
  }

  /** Opens a page of this console; resolves false when it was not shown (superseded, unknown). */
  navigateByUrl(url: string, options: { replace?: boolean } = {}): Promise<boolean> {
    return this.go(url, options.replace ? 'replace' : 'push');
  }

  /** Opens `path` with `query` (null values left out). */
  navigate(path: string | readonly unknown[], query: QueryChange | null = null): Promise<boolean> {
    return this.navigateByUrl(consoleHref(path, query));
  }

  /** The page shown again with its query changed: a null value removes its key. */
  mergeQuery(change: QueryChange, options: { replace?: boolean } = {}): Promise<boolean> {
    const shown = this.shownSignal();
    if (!shown) return Promise.resolve(false);
    const query = mergeQuery(shown.address.query, change);
    return this.navigateByUrl(this.path() + writeQuery(query), options);
  }

  private async go(url: string, step: HistoryStep): Promise<boolean> {
    const id = ++this.latest;
    const destination = this.resolve(url);
    const shown = this.shownSignal();
    if (!destination) return false;
    if (shown && destination.address.url === shown.address.url && step !== 'replace') {
      this.arrivalsSignal.update((n) => n + 1);
      return true;
    }
    let component: Type<unknown>;
    try {
      component = await destination.match.route.load();
    } catch (error) {
      console.error(error);
      if (id === this.latest && shown) void reloadIfServed(destination.address.url);
      return false;
    }
    if (id !== this.latest) return false;
    this.writeHistory(destination, step);
    this.shownSignal.set({ ...destination.match, component, address: destination.address });
    this.pageTitle.show(destination.match.route.title);
    this.arrivalsSignal.update((n) => n + 1);
    return true;
  }

  /** Follows at most two redirects: an unknown page to HOME, then HOME to the key page. */
  private resolve(url: string, redirected = false, hops = 0): Destination | null {
    const address = parseConsoleUrl(url, location.origin);
    const match = address && matchRoute(this.routes, address.segments);
    if (hops > 2) return null;
    if (!address || !match) return this.resolve(HOME, true, hops + 1);
    if (match.route.needsKey && !this.apiKey.key())
      return this.resolve(consoleHref('/key', returnTo(address.url)), true, hops + 1);
    return { match, address, redirected };
  }

  private writeHistory({ address, redirected }: Destination, step: HistoryStep): void {
    const inBar = currentAddress();
    if (step === 'push' && inBar !== address.url) history.pushState(null, '', address.url);
    else if (step === 'replace' && !redirected)
      history.replaceState(history.state, '', address.url + location.hash);
    else if (redirected || inBar !== address.url)
      history.replaceState(history.state, '', address.url);
  }
}

function currentAddress(): string {
  return location.pathname + location.search;
}

/**
 * A page whose chunk failed to load: when the daemon still serves the console (it was upgraded
 * under this tab, and its chunks have new names), the browser loads the address anew. When the
 * daemon is away, the page stays, and the live status says it reconnects.
 */
async function reloadIfServed(url: string): Promise<void> {
  const served = await fetch(url, { method: 'HEAD', cache: 'no-store' }).then(
    (response) => response.ok,
    () => false,
  );
  if (served) location.assign(url);
}
