import { Injectable, inject } from '@angular/core';
import {
  LaunchWait,
  Subscription,
  SubscriptionCreate,
  SubscriptionPatch,
  listOf,
} from '../../../contract/api';
import { ApiClient } from '../core/api-client';

const SubscriptionList = listOf(Subscription);

/**
 * The subscriptions resource of the daemon: list, add, rename, delete, detect identity and models,
 * lift a suspension.
 */
@Injectable({ providedIn: 'root' })
export class SubscriptionsApi {
  private readonly api = inject(ApiClient);

  async list(): Promise<Subscription[]> {
    return (await this.api.read('/api/subscriptions', SubscriptionList)).items;
  }

  get(id: string): Promise<Subscription> {
    return this.api.read(one(id), Subscription);
  }

  create(body: SubscriptionCreate): Promise<Subscription> {
    return this.api.write('POST', '/api/subscriptions', Subscription, body);
  }

  patch(id: string, body: SubscriptionPatch): Promise<Subscription> {
    return this.api.write('PATCH', one(id), Subscription, body);
  }

  remove(id: string): Promise<void> {
    return this.api.remove(one(id));
  }

  /** How long the launch brake would hold the console's next launch here (nothing is spent). */
  launchWait(id: string): Promise<LaunchWait> {
    return this.api.read(`${one(id)}/launch-wait`, LaunchWait);
  }

  detect(id: string): Promise<Subscription> {
    return this.api.write('POST', `${one(id)}/detect`, Subscription, {});
  }

  retry(id: string): Promise<Subscription> {
    return this.api.write('POST', `${one(id)}/retry`, Subscription, {});
  }
}

function one(id: string): string {
  return `/api/subscriptions/${encodeURIComponent(id)}`;
}
