import {
  ChangeDetectionStrategy,
  Component,
  ComponentRef,
  Injector,
  ViewContainerRef,
  WritableSignal,
  effect,
  inject,
  reflectComponentType,
  signal,
  untracked,
} from '@angular/core';
import { ActivePage } from './active-page';
import { Navigator, ShownPage } from './navigator';
import type { QueryParams } from './url';

/** The page being shown, with the signals its `ActivePage` reads. */
interface Rendered {
  shown: ShownPage;
  view: ComponentRef<unknown>;
  params: WritableSignal<Readonly<Record<string, string>>>;
  query: WritableSignal<QueryParams>;
}

/**
 * Shows the navigator's page. The same page with another query keeps its component and only
 * changes its inputs, so a page is never rebuilt for a filter. Another `:segment` (the id of a
 * conversation) is another page, built anew: nothing of the one before (a draft, a terminal, an
 * answer still on its way) can reach it.
 */
@Component({
  selector: 'app-page-outlet',
  template: '',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class PageOutlet {
  private readonly container = inject(ViewContainerRef);
  private readonly injector = inject(Injector);
  private rendered: Rendered | null = null;

  constructor() {
    const navigator = inject(Navigator);
    effect(() => {
      const shown = navigator.shown();
      untracked(() => this.show(shown));
    });
  }

  private show(shown: ShownPage | null): void {
    if (!shown || shown === this.rendered?.shown) return;
    if (
      this.rendered &&
      this.rendered.shown.route === shown.route &&
      sameParams(this.rendered.shown.params, shown.params)
    ) {
      this.rendered.shown = shown;
      this.rendered.params.set(shown.params);
      this.rendered.query.set(shown.address.query);
      bindInputs(this.rendered.view, shown);
      return;
    }
    this.container.clear();
    const params = signal(shown.params);
    const query = signal(shown.address.query);
    const page: ActivePage = { params: params.asReadonly(), query: query.asReadonly() };
    const injector = Injector.create({
      providers: [{ provide: ActivePage, useValue: page }],
      parent: this.injector,
    });
    const view = this.container.createComponent(shown.component, { injector });
    this.rendered = { shown, view, params, query };
    bindInputs(view, shown);
  }
}

function sameParams(
  a: Readonly<Record<string, string>>,
  b: Readonly<Record<string, string>>,
): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

/** Each input of the page takes the `:segment` or, failing that, the query value of its name. */
function bindInputs(view: ComponentRef<unknown>, { component, params, address }: ShownPage): void {
  for (const { templateName } of reflectComponentType(component)?.inputs ?? []) {
    const fromQuery = address.query[templateName];
    const value = params[templateName] ?? (Array.isArray(fromQuery) ? fromQuery[0] : fromQuery);
    view.setInput(templateName, value);
  }
}
