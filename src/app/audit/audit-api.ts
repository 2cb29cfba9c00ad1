import { HttpClient } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import { firstValueFrom, map } from 'rxjs';
import { AuditPage } from '../../../contract/permissions';
import { withJsonErrorBody } from '../core/api-error';
import type { z } from 'zod';

export type AuditPageData = z.infer<typeof AuditPage>;
export type AuditExportFormat = 'csv' | 'json';

/** The audit trail: pages newest first, and an export of a filtered scope. */
@Injectable({ providedIn: 'root' })
export class AuditApi {
  private readonly http = inject(HttpClient);

  page(scope: Record<string, string>, before: string | null, limit = 50): Promise<AuditPageData> {
    const params = { ...scope, limit: String(limit), ...(before ? { before } : {}) };
    return firstValueFrom(
      this.http.get<unknown>('/api/audit', { params }).pipe(map((raw) => AuditPage.parse(raw))),
    );
  }

  /** The export as a Blob: fetched with the key in the header, never in a URL. */
  export(scope: Record<string, string>, format: AuditExportFormat): Promise<Blob> {
    return firstValueFrom(
      this.http.get('/api/audit/export', { params: { ...scope, format }, responseType: 'blob' }),
    ).catch(async (error: unknown) => Promise.reject(await withJsonErrorBody(error)));
  }
}
