import { Injectable, inject } from '@angular/core';
import { PermissionDecisionBody } from '../../../contract/api';
import { ApiFailure, toApiFailure } from '../core/api-error';
import { LiveStore } from '../core/live-store';
import { PermissionsApi } from './permissions-api';

/** Answers one permission request by its id and updates the inbox at once. */
@Injectable({ providedIn: 'root' })
export class PermissionActions {
  private readonly api = inject(PermissionsApi);
  private readonly live = inject(LiveStore);

  /** Resolves to null on success, or the daemon's reason for refusing. */
  async decide(id: string, body: PermissionDecisionBody): Promise<ApiFailure | null> {
    try {
      this.live.upsertPermission(await this.api.decide(id, body));
      return null;
    } catch (error: unknown) {
      const failure = toApiFailure(error);
      if (failure.code === 'permission_not_pending' || failure.status === 404) {
        const pending = this.live.pending().find((p) => p.id === id);
        if (pending) this.live.upsertPermission({ ...pending, state: 'cancelled' });
      }
      return failure;
    }
  }
}
