import { WhenPipe } from '../shared/when.pipe';
import { registerPageCommands } from '../palette/page-commands';
import { ChangeDetectionStrategy, Component, inject, signal } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { Subscription } from '../../../contract/api';
import { ApiFailure, toApiFailure } from '../core/api-error';
import { SubscriptionsApi } from './subscriptions-api';
import { chipClasses } from '../shared/chip-tone';

/** Each subscription's health: active or suspended, the agent's last error, and Retry. */
@Component({
  selector: 'app-subscription-health-list',
  imports: [WhenPipe, MatButtonModule],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './subscription-health-list.html',
  styleUrl: './subscription-health-list.scss',
})
export class SubscriptionHealthList {
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
        group: 'Subscriptions',
        label: 'Refresh the subscriptions',
        keywords: 'reload health',
        run: () => void this.load(),
      },
      ...(this.subscriptions() ?? [])
        .filter((subscription) => subscription.status === 'suspended')
        .map((subscription) => ({
          id: 'subscription-retry-' + subscription.id,
          group: 'Subscriptions',
          label: `Retry subscription ${subscription.name}`,
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
