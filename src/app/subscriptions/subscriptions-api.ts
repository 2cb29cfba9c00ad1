import { HttpClient } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import { firstValueFrom, map } from 'rxjs';
import {
  LaunchWait,
  Subscription,
  SubscriptionCreate,
  SubscriptionPatch,
  listOf,
} from '../../../contract/api';

/**
 * The subscriptions resource of the daemon: list, add, rename, delete, detect identity and models,
 * lift a suspension.
 */
@Injectable({ providedIn: 'root' })
export class SubscriptionsApi {
  private readonly http = inject(HttpClient);

  list(): Promise<Subscription[]> {
    return firstValueFrom(
      this.http
        .get<unknown>('/api/subscriptions')
        .pipe(map((raw) => listOf(Subscription).parse(raw).items)),
    );
  }

  get(id: string): Promise<Subscription> {
    return firstValueFrom(
      this.http
        .get<unknown>(`/api/subscriptions/${encodeURIComponent(id)}`)
        .pipe(map((raw) => Subscription.parse(raw))),
    );
  }

  create(body: SubscriptionCreate): Promise<Subscription> {
    return firstValueFrom(
      this.http
        .post<unknown>('/api/subscriptions', body)
        .pipe(map((raw) => Subscription.parse(raw))),
    );
  }

  patch(id: string, body: SubscriptionPatch): Promise<Subscription> {
    return firstValueFrom(
      this.http
        .patch<unknown>(`/api/subscriptions/${encodeURIComponent(id)}`, body)
        .pipe(map((raw) => Subscription.parse(raw))),
    );
  }

  async remove(id: string): Promise<void> {
    await firstValueFrom(this.http.delete(`/api/subscriptions/${encodeURIComponent(id)}`));
  }

  /** How long the launch brake would hold the console's next launch here (nothing is spent). */
  launchWait(id: string): Promise<LaunchWait> {
    return firstValueFrom(
      this.http
        .get<unknown>(`/api/subscriptions/${encodeURIComponent(id)}/launch-wait`)
        .pipe(map((raw) => LaunchWait.parse(raw))),
    );
  }

  detect(id: string): Promise<Subscription> {
    return this.post(id, 'detect');
  }

  retry(id: string): Promise<Subscription> {
    return this.post(id, 'retry');
  }

  private post(id: string, action: 'detect' | 'retry'): Promise<Subscription> {
    return firstValueFrom(
      this.http
        .post<unknown>(`/api/subscriptions/${encodeURIComponent(id)}/${action}`, {})
        .pipe(map((raw) => Subscription.parse(raw))),
    );
  }
}
