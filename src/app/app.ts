import { NgTemplateOutlet } from '@angular/common';
import {
  ChangeDetectionStrategy,
  Component,
  DestroyRef,
  ElementRef,
  Injector,
  afterNextRender,
  effect,
  inject,
  signal,
  untracked,
  viewChild,
} from '@angular/core';
import { dismissFirstPaint, takeFirstPaintShortcut } from '../first-paint/handoff';
import { ApiKey } from './core/api-key';
import { Attention } from './core/attention';
import { IsolationBanner } from './core/isolation-banner';
import { conversationIdOf } from './core/early-reads';
import { LiveStore } from './core/live-store';
import { otherLocale, switchLocale } from './core/locale-choice';
import { ConsolePage, PAGES } from './core/pages';
import { Navigator } from './core/routing/navigator';
import { PageOutlet } from './core/routing/page-outlet';
import { PageLink } from './core/routing/page-link';
import { Theme } from './core/theme';
import { Typeahead } from './core/typeahead';
import type { PaletteMode } from './palette/palette-dialog';
import { paletteShortcut } from './shared/palette-shortcut';
import { plural } from './shared/plural';

const TEXT = {
  skip: $localize`Skip to content`,
  live: $localize`:connection state:live`,
  reconnecting: $localize`reconnecting…`,
  connecting: $localize`connecting…`,
  commands: $localize`Commands`,
  menu: $localize`Menu`,
  main: $localize`:the main navigation:Main`,
  keyKeptHere: $localize`The key is kept in this browser; click to keep it for this tab only`,
  keyKeptForTab: $localize`The key is kept for this tab only; click to remember it in this browser`,
  keyRemembered: $localize`Key remembered`,
  rememberKey: $localize`Remember key`,
  enableNotifications: $localize`Enable notifications`,
  toLight: $localize`Switch to light theme`,
  toDark: $localize`Switch to dark theme`,
  lightTheme: $localize`Light theme`,
  darkTheme: $localize`Dark theme`,
  language: $localize`Language:`,
};

@Component({
  selector: 'app-root',
  imports: [NgTemplateOutlet, PageOutlet, PageLink, IsolationBanner],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './app.html',
  styleUrl: './app.scss',
  host: {
    '(document:keydown)': 'onKey($event)',
  },
})
export class App {
  protected readonly text = TEXT;
  protected readonly otherLocale = otherLocale();
  protected readonly switchLocale = switchLocale;
  protected readonly apiKey = inject(ApiKey);
  protected readonly live = inject(LiveStore);
  protected readonly theme = inject(Theme);
  protected readonly attention = inject(Attention);
  private readonly injector = inject(Injector);
  private readonly typeahead = inject(Typeahead);

  protected readonly links: readonly ConsolePage[] = PAGES.filter((page) => page.inRail);
  /** On a narrow screen the rail and the top bar's actions fold into one panel behind "Menu". */
  protected readonly menuOpen = signal(false);
  /**
   * The rail's links and the bar's actions, drawn a task after the rest of the shell: Angular's
   * start and the shell's first render were one task of 45–50 ms (traced), in which a key typed in
   * the first paint waited.
   */
  protected readonly restDrawn = signal(false);
  private readonly menuButton = viewChild<ElementRef<HTMLButtonElement>>('menuButton');

  constructor() {
    effect(() => {
      if (this.apiKey.key() && !this.apiKey.rejected()) this.live.start();
    });
    const navigator = inject(Navigator);
    // Any link followed folds the menu, one to the page already shown included.
    effect(() => {
      navigator.arrivals();
      untracked(() => this.menuOpen.set(false));
    });
    // Held keys are taken in the capture phase, before the focused element (a button, the
    // terminal, the composer) can act on them.
    const holdTyped = (event: KeyboardEvent) => {
      if (this.typeahead.capture(event)) event.stopImmediatePropagation();
    };
    window.addEventListener('keydown', holdTyped, { capture: true });
    inject(DestroyRef).onDestroy(() => {
      window.removeEventListener('keydown', holdTyped, { capture: true });
    });
    // The first paint is of a conversation (src/first-paint): any other page shown takes its place.
    effect(() => {
      if (navigator.shown() && !conversationIdOf(navigator.path()))
        afterNextRender(() => dismissFirstPaint(), { injector: this.injector });
    });
    // A shortcut pressed while the first paint was all there was: acted on now.
    const pressed = takeFirstPaintShortcut();
    if (pressed) afterNextRender(() => this.openPalette(pressed));
    afterNextRender(() => {
      setTimeout(() => this.restDrawn.set(true));
      whenIdle(() => void import('./palette/palette'));
    });
  }

  protected toggleMenu(): void {
    this.menuOpen.update((open) => !open);
  }

  protected closeMenu(focusButton: boolean): void {
    if (!this.menuOpen()) return;
    this.menuOpen.set(false);
    if (focusButton) this.menuButton()?.nativeElement.focus();
  }

  protected menuLabel(): string {
    const count = this.live.pendingCount();
    if (count === 0) return TEXT.menu;
    return plural(count, {
      one: $localize`Menu, ${count}:count: prompt waiting`,
      other: $localize`Menu, ${count}:count: prompts waiting`,
    });
  }

  protected pendingText(): string {
    const count = this.live.pendingCount();
    return plural(count, {
      one: $localize`${count}:count: pending prompt`,
      other: $localize`${count}:count: pending prompts`,
    });
  }

  protected showsPending(link: ConsolePage): boolean {
    return link.path === '/inbox' && this.live.pendingCount() > 0;
  }

  /** The palette (and the dialog machinery it needs) loads on first use, not with the shell. */
  protected openPalette(mode: PaletteMode = 'commands'): void {
    if (mode === 'commands') this.typeahead.start();
    import('./palette/palette').then(
      ({ Palette }) => this.injector.get(Palette).open(mode),
      () => this.typeahead.take(),
    );
  }

  protected onKey(event: KeyboardEvent): void {
    if (event.key === 'Escape' && this.menuOpen()) {
      this.closeMenu(true);
      return;
    }
    const mode = paletteShortcut(event);
    if (!mode) return;
    event.preventDefault();
    this.openPalette(mode);
  }
}

/** Runs work once the page has nothing better to do (or after two seconds at most). */
function whenIdle(work: () => void): void {
  if ('requestIdleCallback' in window) requestIdleCallback(work, { timeout: 2000 });
  else setTimeout(work, 500);
}
