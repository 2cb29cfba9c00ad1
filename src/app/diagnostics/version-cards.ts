import { WhenPipe } from '../shared/when.pipe';
import { ChangeDetectionStrategy, Component, inject, signal } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { VersionCard } from '../../../contract/operations';
import { ApiFailure, toApiFailure } from '../core/api-error';
import { DiagnosticsApi } from './diagnostics-api';

/** The component's words, in the console's language. */
const TEXT = {
  agentVersions: $localize`Agent versions`,
  askingTheRegistry: $localize`Asking the registry…`,
  refresh: $localize`Refresh`,
  theVersionsCouldNot: (message: unknown, code: unknown) =>
    $localize`The versions could not be read: ${message}:message: (${code}:code:)`,
  pinned: $localize`Pinned`,
  notInstalled: $localize`not installed`,
  latestPublished: $localize`Latest published`,
  checked: $localize`Checked`,
  never: $localize`never`,
  noAgentIsConfigured: $localize`No agent is configured.`,
  readingVersions: $localize`Reading versions…`,
  upToDate: $localize`Up to date`,
  notYetValidated: $localize`Not yet validated`,
  aNewerVersionIs: $localize`A newer version is published; Relais runs the pinned one until it is validated.`,
  unknown: $localize`Unknown`,
  theRegistryCouldNot: $localize`The registry could not be asked.`,
};

/** One card per agent: the pinned version against the registry's latest, asked through npm. */
@Component({
  selector: 'app-version-cards',
  imports: [WhenPipe, MatButtonModule],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <section aria-labelledby="versions-title">
      <header class="head">
        <h2 id="versions-title">{{ t.agentVersions }}</h2>
        <button mat-stroked-button type="button" (click)="load(true)" [disabled]="loading()">
          {{ loading() ? t.askingTheRegistry : t.refresh }}
        </button>
      </header>
      @if (error(); as error) {
        <p class="error" role="alert">
          {{ t.theVersionsCouldNot(error.message, error.code) }}
        </p>
      }
      @if (cards(); as cards) {
        <div class="cards">
          @for (card of cards; track card.agent) {
            <article class="card" [attr.aria-labelledby]="'version-' + card.agent">
              <h3 [id]="'version-' + card.agent">
                {{ card.agent }} <span class="pkg mono">{{ card.package }}</span>
              </h3>
              <dl>
                <dt>{{ t.pinned }}</dt>
                <dd class="mono" data-testid="pinned">{{ card.pinned ?? t.notInstalled }}</dd>
                <dt>{{ t.latestPublished }}</dt>
                <dd class="mono" data-testid="latest">{{ card.latest ?? '—' }}</dd>
                <dt>{{ t.checked }}</dt>
                <dd>
                  {{ card.checked_at ? (card.checked_at | when) : t.never }}
                </dd>
              </dl>
              @switch (card.status) {
                @case ('same') {
                  <p class="badge same">{{ t.upToDate }}</p>
                }
                @case ('newer') {
                  <p class="badge newer">{{ t.notYetValidated }}</p>
                  <p class="note">
                    {{ t.aNewerVersionIs }}
                  </p>
                }
                @default {
                  <p class="badge unknown">{{ t.unknown }}</p>
                  <p class="note">{{ card.reason ?? t.theRegistryCouldNot }}</p>
                }
              }
            </article>
          } @empty {
            <p class="note">{{ t.noAgentIsConfigured }}</p>
          }
        </div>
      } @else if (!error()) {
        <p role="status">{{ t.readingVersions }}</p>
      }
    </section>
  `,
  styleUrl: '../shared/cards.scss',
  styles: `
    .head {
      display: flex;
      align-items: center;
      gap: 1rem;
      margin-bottom: 0.5rem;
      h2 {
        margin: 0;
      }
    }
    .cards {
      grid-template-columns: repeat(auto-fill, minmax(18rem, 1fr));
    }
    h3 {
      margin: 0 0 0.5rem;
      font: var(--mat-sys-title-small);
    }
    .pkg {
      color: var(--mat-sys-on-surface-variant);
      font-weight: 400;
      margin-left: 0.3rem;
    }
    dl {
      display: grid;
      grid-template-columns: auto 1fr;
      gap: 0.25rem 0.8rem;
      margin: 0 0 0.6rem;
    }
    dt {
      color: var(--mat-sys-on-surface-variant);
    }
    dd {
      margin: 0;
    }
    .badge {
      display: inline-block;
      margin: 0;
      padding: 0.1rem 0.6rem;
      border-radius: 1rem;
      font-size: 0.8rem;
      font-weight: 700;
    }
    .same {
      background: var(--mat-sys-primary-container);
      color: var(--mat-sys-on-primary-container);
    }
    .newer {
      background: var(--mat-sys-tertiary-container);
      color: var(--mat-sys-on-tertiary-container);
    }
    .unknown {
      background: var(--mat-sys-surface-container-highest);
      color: var(--mat-sys-on-surface);
    }
    .note {
      margin: 0.4rem 0 0;
      color: var(--mat-sys-on-surface-variant);
      overflow-wrap: anywhere;
    }
    .error {
      color: var(--mat-sys-error);
    }
  `,
})
export class VersionCards {
  protected readonly t = TEXT;
  private readonly api = inject(DiagnosticsApi);
  protected readonly cards = signal<VersionCard[] | null>(null);
  protected readonly loading = signal(false);
  protected readonly error = signal<ApiFailure | null>(null);

  constructor() {
    void this.load(false);
  }

  protected async load(refresh: boolean): Promise<void> {
    this.loading.set(true);
    this.error.set(null);
    try {
      this.cards.set(await this.api.versions(refresh));
    } catch (error: unknown) {
      this.error.set(toApiFailure(error));
    } finally {
      this.loading.set(false);
    }
  }
}
