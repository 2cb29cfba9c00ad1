import { Injectable, inject } from '@angular/core';
import { QuotasAnswer } from '../../../contract/usage';
import { ApiClient } from '../core/api-client';

/** The quotas resource of the daemon: windows per subscription, as last read. */
@Injectable({ providedIn: 'root' })
export class QuotasApi {
  private readonly api = inject(ApiClient);

  list(): Promise<QuotasAnswer> {
    return this.api.read('/api/quotas', QuotasAnswer);
  }
}
