import { ChangeDetectionStrategy, Component, inject, input } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { ApiKey } from '../api-key';
import { ActivePage } from './active-page';
import { Navigator } from './navigator';
import { PageOutlet } from './page-outlet';
import { PAGE_ROUTES, PageRoute } from './page-route';
import { PageLink } from './page-link';

let built = 0;

@Component({
  selector: 'app-test-item',
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: '<p class="item">{{ id() }}/{{ tab() }}/{{ page.query()["tab"] }}</p>',
})
class ItemPage {
  readonly id = input<string>();
  readonly tab = input<string>();
  protected readonly page = inject(ActivePage);
  constructor() {
    built++;
  }
}

@Component({
  selector: 'app-test-list',
  template: '<p class="list">list</p>',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
class ListPage {}

@Component({
  selector: 'app-test-shell',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [PageOutlet, PageLink],
  template: `
    <a appLink="/sessions" activeClass="on" ariaCurrentWhenActive="page">All</a>
    <a [appLink]="['/sessions', 'a b']" [query]="{ tab: 'x', gone: null }">One</a>
    <app-page-outlet />
  `,
})
class Shell {}

const routes: PageRoute[] = [
  { path: 'sessions', title: 'List', needsKey: true, load: () => Promise.resolve(ListPage) },
  { path: 'sessions/:id', title: 'Item', needsKey: true, load: () => Promise.resolve(ItemPage) },
];

async function shell() {
  history.replaceState(null, '', '/');
  built = 0;
  TestBed.configureTestingModule({ providers: [{ provide: PAGE_ROUTES, useValue: routes }] });
  TestBed.inject(ApiKey).use('k', 'session');
  const fixture = TestBed.createComponent(Shell);
  const navigator = TestBed.inject(Navigator);
  const element = fixture.nativeElement as HTMLElement;
  const settle = async () => {
    await fixture.whenStable();
    fixture.detectChanges();
  };
  return { navigator, element, settle, links: element.querySelectorAll('a') };
}

describe('PageOutlet and PageLink', () => {
  afterEach(() => history.replaceState(null, '', '/'));

  it('shows the page, binds its inputs, keeps it for another query, builds it anew for another id', async () => {
    const { navigator, element, settle } = await shell();
    await navigator.navigateByUrl('/sessions/one?tab=a');
    await settle();
    expect(element.querySelector('.item')?.textContent).toBe('one/a/a');
    await navigator.navigateByUrl('/sessions/one?tab=b');
    await settle();
    expect(element.querySelector('.item')?.textContent).toBe('one/b/b');
    expect(built).toBe(1);
    await navigator.navigateByUrl('/sessions/two?tab=b');
    await settle();
    expect(element.querySelector('.item')?.textContent).toBe('two/b/b');
    expect(built, 'another conversation is another page').toBe(2);
    await navigator.navigateByUrl('/sessions');
    await settle();
    expect(element.querySelector('.item')).toBeNull();
    expect(element.querySelector('.list')).not.toBeNull();
  });

  it('gives links a real href and marks the one whose page is shown', async () => {
    const { navigator, settle, links } = await shell();
    await navigator.navigateByUrl('/sessions/x');
    await settle();
    expect(links[0].getAttribute('href')).toBe('/sessions');
    expect(links[1].getAttribute('href')).toBe('/sessions/a%20b?tab=x');
    expect(links[0].classList).toContain('on');
    expect(links[0].getAttribute('aria-current')).toBe('page');
    expect(links[1].getAttribute('aria-current')).toBeNull();
  });

  it('navigates on a plain click and leaves a modified click to the browser', async () => {
    const { navigator, settle, links } = await shell();
    await navigator.navigateByUrl('/sessions');
    await settle();
    const withCtrl = new MouseEvent('click', { bubbles: true, cancelable: true, ctrlKey: true });
    links[1].dispatchEvent(withCtrl);
    expect(withCtrl.defaultPrevented).toBe(false);
    const plain = new MouseEvent('click', { bubbles: true, cancelable: true });
    links[1].dispatchEvent(plain);
    expect(plain.defaultPrevented).toBe(true);
    await vi.waitFor(() => expect(navigator.shown()?.params).toEqual({ id: 'a b' }));
    expect(location.pathname + location.search).toBe('/sessions/a%20b?tab=x');
  });
});
