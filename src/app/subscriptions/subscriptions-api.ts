import { HttpClient } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import { firstValueFrom, map } from 'rxjs';
import { Subscription, listOf } from '../../../contract/api';

/** The subscriptions resource of the daemon: list, detect identity and models, lift a suspension. */
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
