import { Dialog, DialogRef } from '@angular/cdk/dialog';
import { Injectable, Signal, computed, inject } from '@angular/core';
import { ApiKey } from '../core/api-key';
import { Attention } from '../core/attention';
import { LiveStore } from '../core/live-store';
import { PAGES } from '../core/pages';
import { PAGE_KEYWORDS, SECTIONS } from './page-words';
import { Navigator } from '../core/routing/navigator';
import { otherLocale, switchLocale } from '../core/locale-choice';
import { Theme } from '../core/theme';
import { Typeahead } from '../core/typeahead';
import { sessionName, shortId } from '../sessions/session-name';
import { stateLabel } from '../shared/state-label';
import { PaletteCommand } from './commands';
import { PaletteDialog, PaletteMode } from './palette-dialog';
import { PaletteRegistry } from './palette-registry';
import { revealWhenShown } from './reveal';

const SETTINGS = $localize`:palette group:Settings`;

/** The command palette: the shown pages' commands first, then every page, setting and session. */
@Injectable({ providedIn: 'root' })
export class Palette {
  private readonly dialog = inject(Dialog);
  private readonly navigator = inject(Navigator);
  private readonly live = inject(LiveStore);
  private readonly theme = inject(Theme);
  private readonly apiKey = inject(ApiKey);
  private readonly attention = inject(Attention);
  private readonly registry = inject(PaletteRegistry);
  private readonly typeahead = inject(Typeahead);
  private ref: DialogRef<unknown, PaletteDialog> | null = null;

  readonly commands = computed<PaletteCommand[]>(() => [
    ...this.registry.commands(),
    ...this.globalCommands(),
  ]);

  open(mode: PaletteMode = 'commands'): void {
    if (this.ref) {
      this.ref.componentInstance?.setMode(mode);
      this.ref.componentInstance?.type(this.typeahead.take());
      return;
    }
    this.ref = this.dialog.open(PaletteDialog, {
      data: { mode, commands: this.commands },
      ariaLabel: $localize`Command palette`,
      panelClass: 'palette-panel',
      backdropClass: 'palette-backdrop',
      autoFocus: 'first-tabbable',
      restoreFocus: true,
    });
    this.ref.closed.subscribe(() => {
      this.ref = null;
      this.typeahead.take();
    });
  }

  close(): void {
    this.ref?.close();
  }

  /** Adds page commands for as long as the page lives; returns the function that removes them. */
  register(commands: Signal<PaletteCommand[]>): () => void {
    return this.registry.register(commands);
  }

  private globalCommands(): PaletteCommand[] {
    return [
      ...this.promptCommands(),
      ...this.pageCommands(),
      ...this.settingCommands(),
      ...this.sessionCommands(),
    ];
  }

  private go(path: string, queryParams?: Record<string, string>): () => void {
    return () => void this.navigator.navigate(path, queryParams);
  }

  private promptCommands(): PaletteCommand[] {
    const oldest = this.live.pending()[0];
    if (!oldest) return [];
    return [
      {
        id: 'answer-oldest',
        group: $localize`Actions`,
        label: $localize`Answer the oldest prompt (${oldest.tool_name}:tool:)`,
        keywords: 'permission approve inbox',
        run: this.go('/inbox', { answer: oldest.id }),
      },
    ];
  }

  private pageCommands(): PaletteCommand[] {
    const pages: PaletteCommand[] = PAGES.map((page) => ({
      id: 'page-' + page.path,
      group: $localize`Pages`,
      label:
        page.path === '/sessions/new'
          ? $localize`Launch a session`
          : $localize`Open ${page.label}:page:`,
      keywords: PAGE_KEYWORDS[page.path] ?? '',
      run: this.go(page.path),
    }));
    const sections: PaletteCommand[] = SECTIONS.map((section) => ({
      id: 'section-' + section.headingId,
      group: $localize`Sections`,
      label: $localize`Show ${section.label}:section:`,
      keywords: `${section.keywords} ${section.path.slice(1)}`,
      run: () => {
        void this.navigator
          .navigateByUrl(section.path)
          .then(() => revealWhenShown(section.headingId));
      },
    }));
    return [...pages, ...sections];
  }

  private settingCommands(): PaletteCommand[] {
    const commands: PaletteCommand[] = [
      {
        id: 'theme',
        group: SETTINGS,
        label: this.theme.isDark()
          ? $localize`Switch to the light theme`
          : $localize`Switch to the dark theme`,
        keywords: 'toggle theme dark light colours',
        run: () => this.theme.toggle(),
      },
      {
        id: 'language',
        group: SETTINGS,
        label: $localize`Language: ${otherLocale().name}:language:`,
        keywords: 'language langue english français french anglais',
        run: () => switchLocale(otherLocale().id),
      },
      {
        id: 'key-change',
        group: SETTINGS,
        label: $localize`Change the API key`,
        keywords: 'key token connect paste',
        run: this.go('/key'),
      },
      {
        id: 'help',
        group: $localize`Help`,
        label: $localize`Keyboard shortcuts`,
        keywords: '? keys help',
        run: () => this.open('help'),
      },
    ];
    if (this.apiKey.key()) {
      const remembered = this.apiKey.remembered();
      commands.push({
        id: 'key-remember',
        group: SETTINGS,
        label: remembered
          ? $localize`Keep the API key for this tab only`
          : $localize`Remember the API key in this browser`,
        keywords: 'key forget store',
        run: () => this.apiKey.setRemembered(!remembered),
      });
    }
    if (this.attention.notificationPermission() === 'default') {
      commands.push({
        id: 'notifications',
        group: SETTINGS,
        label: $localize`Enable notifications`,
        keywords: 'alerts desktop prompts',
        run: () => void this.attention.askForNotifications(),
      });
    }
    return commands;
  }

  private sessionCommands(): PaletteCommand[] {
    return this.live
      .sessions()
      .slice(0, 50)
      .map((session) => ({
        id: 'session-' + session.id,
        group: $localize`Sessions`,
        label: $localize`Go to ${sessionName(session)}:session: · ${stateLabel(session.state)}:state:`,
        keywords: `${shortId(session.id)} ${session.cwd} ${session.model} ${session.app} ${session.subscription_id}`,
        run: this.go('/sessions/' + session.id),
      }));
  }
}
