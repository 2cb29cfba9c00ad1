import {
  ChangeDetectionStrategy,
  Component,
  DestroyRef,
  Injector,
  effect,
  inject,
  signal,
} from '@angular/core';
import type { IsolationReport } from '../../../contract/operations';
import { ApiKey } from './api-key';

/** The component's words, in the console's language. */
const TEXT = {
  isolationIsOffRelais: $localize`Isolation is off (RELAIS_ISOLATION=off): the commands of every session run unconfined.`,
  sessionsCannotStartCommands: (problem: unknown) =>
    $localize`Sessions cannot start: commands cannot be confined on this machine (${problem}:problem:).`,
  install: $localize`Install:`,
};

/** How often the banner reads the machine again: installing bubblewrap needs no restart. */
const RECHECK_MS = 60_000;

/**
 * A banner on every page while sessions cannot be confined (nothing to install would let them
 * start) or run unconfined on purpose (RELAIS_ISOLATION=off), so no launch comes as a surprise.
 */
@Component({
  selector: 'app-isolation-banner',
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    @let report = isolation();
    @if (report && !report.enabled) {
      <p class="banner" role="status" id="isolation-banner">
        {{ t.isolationIsOffRelais }}
      </p>
    } @else if (report && !report.available) {
      <p class="banner" role="alert" id="isolation-banner">
        {{ t.sessionsCannotStartCommands(report.problem) }}
        @if (report.install) {
          {{ t.install }} <code>{{ report.install }}</code>
        }
      </p>
    }
  `,
  styles: `
    .banner {
      margin: 0;
      padding: 8px 16px;
      background: var(--mat-sys-error-container);
      color: var(--mat-sys-on-error-container);
      font-size: 0.875rem;
    }
  `,
})
export class IsolationBanner {
  protected readonly t = TEXT;
  private readonly injector = inject(Injector);
  private readonly apiKey = inject(ApiKey);
  protected readonly isolation = signal<IsolationReport | null>(null);

  constructor() {
    const timer = setInterval(() => void this.read(), RECHECK_MS);
    inject(DestroyRef).onDestroy(() => clearInterval(timer));
    effect(() => {
      if (this.apiKey.key() && !this.apiKey.rejected()) void this.read();
    });
  }

  private async read(): Promise<void> {
    if (!this.apiKey.key()) return;
    try {
      const { readIsolation } = await import('./isolation-read');
      this.isolation.set(await readIsolation(this.injector));
    } catch {
      // The daemon is away or the key is wrong: other parts of the console say so.
    }
  }
}
