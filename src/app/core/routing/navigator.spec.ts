import { ChangeDetectionStrategy, Component, Type, input } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { ApiKey } from '../api-key';
import { Navigator } from './navigator';
import { PAGE_ROUTES, PageRoute } from './page-route';

@Component({
  selector: 'app-test-list',
  template: 'list',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
class ListPage {}

@Component({
  selector: 'app-test-item',
  template: '{{ id() }}',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
class ItemPage {
  readonly id = input<string>();
}

@Component({
  selector: 'app-test-key',
  template: 'key',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
class KeyPage {}

const slowItem = { load: () => Promise.resolve<Type<unknown>>(ItemPage) };

/** From now on the item page's chunk arrives when the test calls what this returns. */
function itemArrivesLater(): () => void {
  let arrive = (): void => undefined;
  const arrived = new Promise<Type<unknown>>((resolve) => (arrive = () => resolve(ItemPage)));
  slowItem.load = () => arrived;
  return () => arrive();
}

function routes(): PageRoute[] {
  return [
    { path: 'key', title: 'Key', needsKey: false, load: () => Promise.resolve(KeyPage) },
    { path: 'sessions', title: 'List', needsKey: true, load: () => Promise.resolve(ListPage) },
    { path: 'sessions/:id', title: 'Item', needsKey: true, load: () => slowItem.load() },
  ];
}

function setUp(options: { key: boolean }): Navigator {
  localStorage.clear();
  sessionStorage.clear();
  history.replaceState(null, '', '/');
  TestBed.configureTestingModule({ providers: [{ provide: PAGE_ROUTES, useFactory: routes }] });
  if (options.key) TestBed.inject(ApiKey).use('k', 'session');
  return TestBed.inject(Navigator);
}

const bar = () => location.pathname + location.search;

describe('Navigator', () => {
  afterEach(() => {
    slowItem.load = () => Promise.resolve(ItemPage);
    history.replaceState(null, '', '/');
  });

  it('sends an address that names no page, and the bare /, to the sessions', async () => {
    const navigator = setUp({ key: true });
    expect(await navigator.navigateByUrl('/nowhere?x=1')).toBe(true);
    expect(bar()).toBe('/sessions');
    expect(navigator.shown()?.route.path).toBe('sessions');
    expect(await navigator.navigateByUrl('/sessions/%E0%A4%A')).toBe(true);
    expect(bar()).toBe('/sessions');
  });

  it('sends a page that needs the key to the key page, which brings the person back', async () => {
    const navigator = setUp({ key: false });
    await navigator.navigateByUrl('/sessions/ses_1?tab=2');
    expect(navigator.shown()?.route.path).toBe('key');
    expect(navigator.shown()?.address.query).toEqual({ next: '/sessions/ses_1?tab=2' });
  });

  it('writes one history entry per page, none for the page already shown', async () => {
    const navigator = setUp({ key: true });
    const before = history.length;
    await navigator.navigateByUrl('/sessions');
    await navigator.navigateByUrl('/sessions/ses_1');
    const arrivals = navigator.arrivals();
    expect(await navigator.navigateByUrl('/sessions/ses_1')).toBe(true);
    expect(history.length).toBe(before + 2);
    expect(navigator.arrivals()).toBe(arrivals + 1);
    expect(navigator.shown()?.params).toEqual({ id: 'ses_1' });
  });

  it('replaces the entry when asked, and merges a query into the page shown', async () => {
    const navigator = setUp({ key: true });
    await navigator.navigateByUrl('/sessions?a=1&b=2');
    const before = history.length;
    await navigator.mergeQuery({ b: null, c: 'x y' }, { replace: true });
    expect(bar()).toBe('/sessions?a=1&c=x%20y');
    expect(history.length).toBe(before);
  });

  it('shows the last page asked for when navigations overlap', async () => {
    const navigator = setUp({ key: true });
    await navigator.navigateByUrl('/sessions');
    const arrive = itemArrivesLater();
    const first = navigator.navigateByUrl('/sessions/ses_slow');
    const second = navigator.navigateByUrl('/sessions?later=1');
    expect(await second).toBe(true);
    arrive();
    expect(await first).toBe(false);
    expect(bar()).toBe('/sessions?later=1');
    expect(navigator.shown()?.route.path).toBe('sessions');
  });

  it('changes the address only once the page has loaded', async () => {
    const navigator = setUp({ key: true });
    await navigator.navigateByUrl('/sessions');
    const arrive = itemArrivesLater();
    const going = navigator.navigateByUrl('/sessions/ses_2');
    await Promise.resolve();
    expect(bar()).toBe('/sessions');
    arrive();
    await going;
    expect(bar()).toBe('/sessions/ses_2');
  });

  it('follows the back button', async () => {
    const navigator = setUp({ key: true });
    navigator.start();
    await navigator.navigateByUrl('/sessions');
    await navigator.navigateByUrl('/sessions/ses_3');
    history.replaceState(null, '', '/sessions');
    window.dispatchEvent(new PopStateEvent('popstate'));
    await vi.waitFor(() => expect(navigator.shown()?.route.path).toBe('sessions'));
  });
});
