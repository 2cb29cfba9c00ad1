import {
  ChangeDetectionStrategy,
  Component,
  Injector,
  afterNextRender,
  inject,
  signal,
  viewChildren,
} from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { LatestAsk } from '../shared/latest-ask';
import type { Subscription } from '../../../contract/api';
import { ApiFailure, toApiFailure } from '../core/api-error';
import { registerPageCommands } from '../palette/page-commands';
import { AddSubscription } from './add-subscription';
import { SubscriptionCard } from './subscription-card';
import { SubscriptionsApi } from './subscriptions-api';

/** The component's words, in the console's language. */
const TEXT = {
  subscriptions: $localize`Subscriptions`,
  refresh: $localize`Refresh`,
  aSubscriptionIsAn: $localize`A subscription is an agent and its own configuration folder, in which you logged in once. Relais runs the agent with that folder only: no key or setting of one subscription reaches another. Detection reads the account and the models without generating anything.`,
  theSubscriptionsCouldNot: (message: unknown, code: unknown) =>
    $localize`The subscriptions could not be loaded: ${message}:message: (${code}:code:)`,
  retryLoading: $localize`Retry loading`,
  noSubscriptionYet: $localize`No subscription yet.`,
  loadingSubscriptions: $localize`Loading subscriptions…`,
};

/** The subscriptions: add one (Claude or Codex), rename, delete, and see what detection found. */
@Component({
  selector: 'app-subscriptions-page',
  imports: [MatButtonModule, AddSubscription, SubscriptionCard],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './subscriptions-page.html',
  styleUrl: './subscriptions-page.scss',
})
export class SubscriptionsPage {
  protected readonly t = TEXT;
  private readonly api = inject(SubscriptionsApi);
  private readonly injector = inject(Injector);
  private readonly cards = viewChildren(SubscriptionCard);
  protected readonly subscriptions = signal<Subscription[] | null>(null);
  /** A list read answered after a later read, or after a change made here, is not shown. */
  private readonly listing = new LatestAsk();
  protected readonly error = signal<ApiFailure | null>(null);
  protected readonly announcement = signal('');

  constructor() {
    registerPageCommands(() => [
      {
        id: 'subscriptions-add',
        group: $localize`Subscriptions`,
        label: $localize`Add a subscription`,
        keywords: 'new claude codex account folder',
        run: () => document.getElementById('add-name')?.focus(),
      },
      ...(this.subscriptions() ?? []).map((subscription) => ({
        id: 'subscription-detect-' + subscription.id,
        group: $localize`Subscriptions`,
        label: $localize`Run detection for ${subscription.name}`,
        keywords: 'detect models account identity',
        run: () => void this.detect(subscription.id),
      })),
    ]);
    void this.load();
  }

  protected async load(): Promise<void> {
    const current = this.listing.ask();
    this.error.set(null);
    try {
      const list = await this.api.list();
      if (current()) this.subscriptions.set(list);
    } catch (error: unknown) {
      if (current()) this.error.set(toApiFailure(error));
    }
  }

  /** A new subscription is detected at once, so the person sees its account and models. */
  protected onAdded(subscription: Subscription): void {
    this.listing.supersede();
    this.subscriptions.update((list) => [...(list ?? []), subscription]);
    this.announcement.set($localize`Added ${subscription.name}; running its detection.`);
    afterNextRender(() => void this.detect(subscription.id), { injector: this.injector });
  }

  /** Other subscriptions' sharing flags change with one's detection: the list is read again. */
  protected async onChanged(subscription: Subscription): Promise<void> {
    this.subscriptions.update((list) =>
      (list ?? []).map((s) => (s.id === subscription.id ? subscription : s)),
    );
    await this.load();
  }

  protected onRemoved(subscription: Subscription): void {
    this.listing.supersede();
    const list = this.subscriptions() ?? [];
    const index = list.findIndex((s) => s.id === subscription.id);
    this.subscriptions.set(list.filter((s) => s.id !== subscription.id));
    this.announcement.set($localize`Deleted ${subscription.name}.`);
    void this.load(); // The others' sharing flags may name it.
    // The focus goes to the card that took its place, else to the page's heading.
    afterNextRender(
      () => {
        const cards = document.querySelectorAll<HTMLElement>('app-subscription-card h2');
        const next = cards[Math.min(index, cards.length - 1)];
        const target = next ?? document.getElementById('subscriptions-page-title');
        target?.setAttribute('tabindex', '-1');
        target?.focus();
      },
      { injector: this.injector },
    );
  }

  private async detect(id: string): Promise<void> {
    await this.cards()
      .find((card) => card.subscription().id === id)
      ?.detect();
  }
}
