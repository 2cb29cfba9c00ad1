import { WhenPipe } from '../shared/when.pipe';
import { registerPageCommands } from '../palette/page-commands';
import { ChangeDetectionStrategy, Component, inject, signal } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { Subscription } from '../../../contract/api';
import { ApiFailure, toApiFailure } from '../core/api-error';
import { SubscriptionsApi } from './subscriptions-api';
import { chipClasses } from '../shared/chip-tone';

/** The component's words, in the console's language. */
const TEXT = {
  subscriptions: $localize`Subscriptions`,
  refresh: $localize`Refresh`,
  threeFailedStartsIn: $localize`Three failed starts in a row suspend a subscription; it reopens when one of its sessions answers, or with Retry.`,
  retryFailed: (message: unknown, code: unknown) =>
    $localize`Retry failed: ${message}:message: (${code}:code:)`,
  theSubscriptionsCouldNot: (message: unknown, code: unknown) =>
    $localize`The subscriptions could not be loaded: ${message}:message: (${code}:code:)`,
  retryLoading: $localize`Retry loading`,
  retryNamed: (name: unknown) => $localize`Retry ${name}:name:`,
  reopening: $localize`Reopening…`,
  retry2: $localize`Retry`,
  suspendedSinceAfterFailed: (
    suspended_at: unknown,
    consecutive_failed_starts: unknown,
    next_wait_seconds: unknown,
  ) =>
    $localize`Suspended since ${suspended_at}:suspended_at: after ${consecutive_failed_starts}:consecutive_failed_starts: failed starts; a launch now would be told to wait ${next_wait_seconds}:next_wait_seconds: s.`,
  failedStartSIn: (consecutive_failed_starts: unknown) =>
    $localize`${consecutive_failed_starts}:consecutive_failed_starts: failed start(s) in a row.`,
  lastError: $localize`Last error:`,
  noSubscriptionIsConfigured: $localize`No subscription is configured.`,
  loadingSubscriptions: $localize`Loading subscriptions…`,
};

/** Each subscription's health: active or suspended, the agent's last error, and Retry. */
@Component({
  selector: 'app-subscription-health-list',
  imports: [WhenPipe, MatButtonModule],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './subscription-health-list.html',
  styleUrl: './subscription-health-list.scss',
})
export class SubscriptionHealthList {
  protected readonly t = TEXT;
  protected readonly statusLabels: Record<string, string> = {
    active: $localize`:subscription status:active`,
    suspended: $localize`:subscription status:suspended`,
  };
  protected readonly chipClasses = chipClasses;
  private readonly api = inject(SubscriptionsApi);
  protected readonly subscriptions = signal<Subscription[] | null>(null);
  protected readonly error = signal<ApiFailure | null>(null);
  protected readonly retryError = signal<ApiFailure | null>(null);
  protected readonly retrying = signal<string | null>(null);
  protected readonly announcement = signal('');

  constructor() {
    registerPageCommands(() => [
      {
        id: 'subscriptions-refresh',
        group: $localize`Subscriptions`,
        label: $localize`Refresh the subscriptions`,
        keywords: 'reload health',
        run: () => void this.load(),
      },
      ...(this.subscriptions() ?? [])
        .filter((subscription) => subscription.status === 'suspended')
        .map((subscription) => ({
          id: 'subscription-retry-' + subscription.id,
          group: $localize`Subscriptions`,
          label: $localize`Retry subscription ${subscription.name}`,
          keywords: 'reopen suspended brake',
          run: () => void this.retry(subscription),
        })),
    ]);
    void this.load();
  }

  protected async load(): Promise<void> {
    this.error.set(null);
    try {
      this.subscriptions.set(await this.api.list());
    } catch (error: unknown) {
      this.error.set(toApiFailure(error));
    }
  }

  protected async retry(subscription: Subscription): Promise<void> {
    this.retrying.set(subscription.id);
    this.retryError.set(null);
    try {
      const updated = await this.api.retry(subscription.id);
      this.subscriptions.update((list) =>
        (list ?? []).map((s) => (s.id === updated.id ? updated : s)),
      );
      this.announcement.set(`${updated.name} reopened: launches are accepted again.`);
    } catch (error: unknown) {
      this.retryError.set(toApiFailure(error));
    } finally {
      this.retrying.set(null);
    }
  }
}
