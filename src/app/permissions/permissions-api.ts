import { Injectable, inject } from '@angular/core';
import { PermissionDecisionBody, PermissionRequest, listOf } from '../../../contract/api';
import { ApiClient } from '../core/api-client';

const PendingPage = listOf(PermissionRequest);

/** The permissions resource: pending requests across sessions, and one decision per request id. */
@Injectable({ providedIn: 'root' })
export class PermissionsApi {
  private readonly api = inject(ApiClient);

  async pending(): Promise<PermissionRequest[]> {
    const page = await this.api.read('/api/permissions', PendingPage, {
      state: 'pending',
      limit: '500',
    });
    return page.items;
  }

  decide(id: string, body: PermissionDecisionBody): Promise<PermissionRequest> {
    const path = `/api/permissions/${encodeURIComponent(id)}/decision`;
    return this.api.write('POST', path, PermissionRequest, body);
  }
}
