import { ChangeDetectionStrategy, Component, effect, inject } from '@angular/core';
import { MatBadgeModule } from '@angular/material/badge';
import { MatButtonModule } from '@angular/material/button';
import { MatToolbarModule } from '@angular/material/toolbar';
import { MatTooltipModule } from '@angular/material/tooltip';
import { RouterLink, RouterLinkActive, RouterOutlet } from '@angular/router';
import { ApiKey } from './core/api-key';
import { Attention } from './core/attention';
import { LiveStore } from './core/live-store';
import { ConsolePage, PAGES } from './core/pages';
import { Theme } from './core/theme';
import { Palette } from './palette/palette';

@Component({
  selector: 'app-root',
  imports: [
    RouterOutlet,
    RouterLink,
    RouterLinkActive,
    MatToolbarModule,
    MatButtonModule,
    MatBadgeModule,
    MatTooltipModule,
  ],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './app.html',
  styleUrl: './app.scss',
  host: {
    '(document:keydown)': 'onKey($event)',
  },
})
export class App {
  protected readonly apiKey = inject(ApiKey);
  protected readonly live = inject(LiveStore);
  protected readonly theme = inject(Theme);
  protected readonly attention = inject(Attention);
  private readonly palette = inject(Palette);

  protected readonly links: readonly ConsolePage[] = PAGES.filter((page) => page.inRail);

  constructor() {
    effect(() => {
      if (this.apiKey.key() && !this.apiKey.rejected()) this.live.start();
    });
  }

  protected openPalette(): void {
    this.palette.open();
  }

  protected onKey(event: KeyboardEvent): void {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
      event.preventDefault();
      this.palette.open();
    } else if (event.key === '?' && !isTyping(event.target)) {
      event.preventDefault();
      this.palette.open('help');
    }
  }
}

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}
