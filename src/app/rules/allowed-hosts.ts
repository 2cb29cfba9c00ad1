import {
  ChangeDetectionStrategy,
  Component,
  ElementRef,
  inject,
  signal,
  viewChild,
} from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { AllowedHost, listOf } from '../../../contract/api';
import { ApiClient } from '../core/api-client';
import { ApiFailure, toApiFailure } from '../core/api-error';
import { decidedByLabel } from '../shared/decided-by-label';
import { Timestamp } from '../shared/timestamp';

const AllowedHostPage = listOf(AllowedHost);

/** The component's words, in the console's language. */
const TEXT = {
  hostsAllowedAlways: $localize`Hosts allowed always`,
  answeredAlwaysForThis: $localize`Answered "Always for this host" in a network prompt: commands of every session connect to these host and port pairs without asking.`,
  since: $localize`since`,
  remove: (host: unknown) => $localize`Remove ${host}:host:`,
  remove2: $localize`Remove`,
  noneEveryNewDestination: $localize`None: every new destination is a prompt.`,
};

/**
 * The destinations answered "Always for this host" in a Network prompt: a command of any session
 * reaches them without asking. Removed, the next connection there is a prompt again.
 */
@Component({
  selector: 'app-allowed-hosts',
  imports: [MatButtonModule, Timestamp],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <section class="hosts" aria-labelledby="allowed-hosts-title">
      <h2 id="allowed-hosts-title" tabindex="-1" #title>
        {{ t.hostsAllowedAlways }} <span class="count">{{ hosts()?.length ?? '' }}</span>
      </h2>
      <p class="explanation">
        {{ t.answeredAlwaysForThis }}
      </p>
      <p class="status" role="status">{{ announcement() }}</p>
      @if (failure(); as failure) {
        <p class="page-state error" role="alert">{{ failure.message }} ({{ failure.code }})</p>
      }
      @if (hosts(); as hosts) {
        <ul class="list">
          @for (h of hosts; track h.host + ':' + h.port) {
            <li class="host">
              <code>{{ h.host }}:{{ h.port }}</code>
              <span class="since">
                {{ t.since }} <time [appTimestamp]="toMs(h.created_at)"></time> ·
                {{ decidedByLabel(h.decided_by) }}
              </span>
              <button
                mat-button
                type="button"
                class="danger"
                [disabled]="busy()"
                (click)="remove(h)"
                [attr.aria-label]="t.remove(h.host + ':' + h.port)"
              >
                {{ t.remove2 }}
              </button>
            </li>
          } @empty {
            <li class="none">{{ t.noneEveryNewDestination }}</li>
          }
        </ul>
      }
    </section>
  `,
  styles: `
    .hosts {
      margin-top: 1.75rem;
    }
    h2 {
      margin: 0;
    }
    .count {
      font: var(--mat-sys-label-medium);
      color: var(--mat-sys-on-surface-variant);
      margin-left: 0.3rem;
    }
    .explanation,
    .since,
    .none {
      color: var(--mat-sys-on-surface-variant);
    }
    .status {
      min-height: 1.5rem;
      margin: 0.25rem 0;
    }
    .list {
      list-style: none;
      margin: 0;
      padding: 0;
      border-top: 1px solid var(--mat-sys-outline-variant);
    }
    .host,
    .none {
      display: flex;
      align-items: center;
      gap: 0.8rem;
      padding: 0.45rem 0.4rem;
      border-bottom: 1px solid var(--mat-sys-outline-variant);
      overflow-wrap: anywhere;
    }
    .since {
      flex: 1;
    }
    .danger {
      color: var(--mat-sys-error);
    }
  `,
})
export class AllowedHosts {
  protected readonly t = TEXT;
  protected readonly decidedByLabel = decidedByLabel;
  private readonly api = inject(ApiClient);
  private readonly title = viewChild.required<ElementRef<HTMLElement>>('title');

  protected readonly hosts = signal<AllowedHost[] | null>(null);
  protected readonly failure = signal<ApiFailure | null>(null);
  protected readonly busy = signal(false);
  protected readonly announcement = signal('');

  constructor() {
    void this.load();
  }

  protected toMs(iso: string): number {
    return Date.parse(iso);
  }

  private async load(): Promise<void> {
    try {
      this.hosts.set((await this.api.read('/api/allowed-hosts', AllowedHostPage)).items);
      this.failure.set(null);
    } catch (error: unknown) {
      this.failure.set(toApiFailure(error));
    }
  }

  protected async remove(host: AllowedHost): Promise<void> {
    if (this.busy()) return;
    this.busy.set(true);
    const name = `${host.host}:${host.port}`;
    try {
      await this.api.remove(`/api/allowed-hosts/${encodeURIComponent(host.host)}/${host.port}`);
      this.announcement.set(`${name} removed: the next connection there asks again.`);
    } catch (error: unknown) {
      this.failure.set(toApiFailure(error));
    }
    await this.load();
    this.busy.set(false);
    // The row and its button are gone: keep the keyboard in this list.
    this.title().nativeElement.focus();
  }
}
