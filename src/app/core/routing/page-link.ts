import { Directive, ElementRef, computed, effect, inject, input } from '@angular/core';
import { Navigator } from './navigator';
import { QueryChange, consoleHref } from './url';

/**
 * A link to a page of the console: a real `href` (it opens in a new tab, copies, shows in the
 * status bar), and a plain click navigates without reloading. A click the browser should handle
 * (a modifier, another button, a target) is left to it.
 */
@Directive({
  selector: 'a[appLink]',
  host: {
    '[attr.href]': 'href()',
    '[attr.aria-current]': 'active() ? ariaCurrentWhenActive() : null',
    '(click)': 'follow($event)',
  },
})
export class PageLink {
  private readonly navigator = inject(Navigator);
  private readonly element = inject<ElementRef<HTMLAnchorElement>>(ElementRef).nativeElement;

  /** `/rules`, or segments to encode after the first: `['/sessions', id]`. */
  readonly appLink = input.required<string | readonly unknown[]>();
  readonly query = input<QueryChange | null>(null);
  /** A class the link has while its page (or a page below it) is shown. */
  readonly activeClass = input('');
  readonly ariaCurrentWhenActive = input<'page' | null>(null);

  protected readonly href = computed(() => consoleHref(this.appLink(), this.query()));
  private readonly path = computed(() => this.href().split('?', 1)[0]);
  protected readonly active = computed(() => {
    const shown = this.navigator.path();
    return shown === this.path() || shown.startsWith(this.path() + '/');
  });

  constructor() {
    effect(() => {
      const activeClass = this.activeClass();
      if (activeClass) this.element.classList.toggle(activeClass, this.active());
    });
  }

  protected follow(event: MouseEvent): boolean {
    const target = this.element.getAttribute('target');
    const browserHandles =
      event.button !== 0 ||
      event.ctrlKey ||
      event.metaKey ||
      event.shiftKey ||
      event.altKey ||
      (target !== null && target !== '_self');
    if (browserHandles) return true;
    void this.navigator.navigateByUrl(this.href());
    return false;
  }
}
