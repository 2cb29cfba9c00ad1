import { HttpClient } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import { firstValueFrom, map } from 'rxjs';
import { Subscription, listOf } from '../../../contract/api';

/**
 * Subscriptions as operations sees them: their health, and Retry to lift a suspension.
 * (The launch form keeps its own small reader in sessions/; both parse the same contract.)
 */
@Injectable({ providedIn: 'root' })
export class SubscriptionHealthApi {
  private readonly http = inject(HttpClient);

  list(): Promise<Subscription[]> {
    return firstValueFrom(this.http.get<unknown>('/api/subscriptions').pipe(map((raw) => listOf(Subscription).parse(raw).items)));
  }

  retry(id: string): Promise<Subscription> {
    return firstValueFrom(
      this.http.post<unknown>(`/api/subscriptions/${encodeURIComponent(id)}/retry`, {}).pipe(map((raw) => Subscription.parse(raw))),
    );
  }
}
