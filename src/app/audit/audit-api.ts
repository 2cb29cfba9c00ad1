import { Injectable, inject } from '@angular/core';
import type { z } from 'zod';
import { AuditPage } from '../../../contract/permissions';
import { ApiClient } from '../core/api-client';

export type AuditPageData = z.infer<typeof AuditPage>;
export type AuditExportFormat = 'csv' | 'json';

/** The audit trail: pages newest first, and an export of a filtered scope. */
@Injectable({ providedIn: 'root' })
export class AuditApi {
  private readonly api = inject(ApiClient);

  page(scope: Record<string, string>, before: string | null, limit = 50): Promise<AuditPageData> {
    const query = { ...scope, limit: String(limit), ...(before ? { before } : {}) };
    return this.api.read('/api/audit', AuditPage, query);
  }

  /** The export as a Blob: fetched with the key in the header, never in a URL. */
  export(scope: Record<string, string>, format: AuditExportFormat): Promise<Blob> {
    return this.api.download('/api/audit/export', { ...scope, format });
  }
}
