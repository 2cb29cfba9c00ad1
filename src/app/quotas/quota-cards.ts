import { registerPageCommands } from '../palette/page-commands';
import { ChangeDetectionStrategy, Component, DestroyRef, computed, inject } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { toApiFailure } from '../core/api-error';
import { Now } from '../shared/now';
import { reading } from '../shared/reading';
import { SubscriptionsApi } from '../subscriptions/subscriptions-api';
import { QuotasApi } from './quotas-api';
import { describeWindow, pollText } from './quota-view';

const REFRESH_MS = 60_000;

/** The component's words, in the console's language. */
const TEXT = {
  quotas: $localize`Quotas`,
  aReadingOlderThan: (staleAfter: unknown) =>
    $localize`a reading older than ${staleAfter}:staleAfter: is stale`,
  reading: $localize`Reading…`,
  refreshQuotas: $localize`Refresh quotas`,
  quotasCouldNotBe: (message: unknown, code: unknown) =>
    $localize`Quotas could not be read: ${message}:message: (${code}:code:)`,
  retry: $localize`Retry`,
  stale: (value: unknown) => $localize`${value}:value:, stale`,
  used: (subscription: unknown, window: unknown) =>
    $localize`${subscription}:subscription: ${window}:window: used`,
  theProviderReportedNo: $localize`The provider reported no window for this subscription yet.`,
  noSubscriptionToShow: $localize`No subscription to show quotas for.`,
  readingQuotas: $localize`Reading quotas…`,
};

/** Quota windows per subscription on the dashboard; read again every minute or on demand. */
@Component({
  selector: 'app-quota-cards',
  imports: [MatButtonModule],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './quota-cards.html',
  styleUrl: './quota-cards.scss',
})
export class QuotaCards {
  protected readonly t = TEXT;
  private readonly api = inject(QuotasApi);
  private readonly now = inject(Now);

  private readonly subscriptionsApi = inject(SubscriptionsApi);
  protected readonly quotas = reading({ loader: () => this.api.list() });
  /** For the cards' titles: a subscription is known by its name. */
  private readonly subscriptions = reading({ loader: () => this.subscriptionsApi.list() });
  protected readonly error = computed(() =>
    this.quotas.error() === undefined ? null : toApiFailure(this.quotas.error()),
  );

  protected readonly cards = computed(() => {
    if (!this.quotas.hasValue()) return null;
    const now = this.now.minute();
    const names = new Map(
      (this.subscriptions.hasValue() ? this.subscriptions.value() : []).map((s) => [s.id, s.name]),
    );
    return this.quotas.value().items.map((quota) => ({
      id: quota.subscription_id,
      title: names.get(quota.subscription_id) ?? quota.subscription_id,
      poll: pollText(quota, now),
      pollFailed: quota.poll.last_error !== null,
      windows: quota.windows.map((w) => describeWindow(w, now)),
    }));
  });
  protected readonly staleAfter = computed(() => {
    if (!this.quotas.hasValue()) return null;
    const seconds = this.quotas.value().stale_after_seconds;
    return seconds < 120 ? `${seconds} s` : `${Math.round(seconds / 60)} min`;
  });

  constructor() {
    registerPageCommands(() => [
      {
        id: 'quotas-refresh',
        group: $localize`Quotas`,
        label: $localize`Refresh the quotas`,
        keywords: 'quota limits reload',
        run: () => this.refresh(),
      },
    ]);
    const timer = setInterval(() => this.quotas.reload(), REFRESH_MS);
    inject(DestroyRef).onDestroy(() => clearInterval(timer));
  }

  protected refresh(): void {
    this.quotas.reload();
    this.subscriptions.reload();
  }
}
