import { HttpClient } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import { firstValueFrom, map } from 'rxjs';
import { PermissionDecisionBody, PermissionRequest, listOf } from '../../../contract/api';

/** The permissions resource: pending requests across sessions, and one decision per request id. */
@Injectable({ providedIn: 'root' })
export class PermissionsApi {
  private readonly http = inject(HttpClient);

  pending(): Promise<PermissionRequest[]> {
    return firstValueFrom(
      this.http
        .get<unknown>('/api/permissions', { params: { state: 'pending', limit: '500' } })
        .pipe(map((raw) => listOf(PermissionRequest).parse(raw).items)),
    );
  }

  decide(id: string, body: PermissionDecisionBody): Promise<PermissionRequest> {
    return firstValueFrom(
      this.http
        .post<unknown>(`/api/permissions/${encodeURIComponent(id)}/decision`, body)
        .pipe(map((raw) => PermissionRequest.parse(raw))),
    );
  }
}
