import { Injectable, inject } from '@angular/core';
import { AdmissionAnswer, QuotasAnswer } from '../../../contract/usage';
import { ApiClient } from '../core/api-client';

/** The quotas resource of the daemon: windows per subscription, as last read. */
@Injectable({ providedIn: 'root' })
export class QuotasApi {
  private readonly api = inject(ApiClient);

  list(): Promise<QuotasAnswer> {
    return this.api.read('/api/quotas', QuotasAnswer);
  }

  /** What admission would decide for a launch on this subscription now (nothing is reserved). */
  admission(subscriptionId: string): Promise<AdmissionAnswer> {
    return this.api.read('/api/quotas/admission', AdmissionAnswer, {
      subscription_id: subscriptionId,
    });
  }
}
