import { Injectable, inject } from '@angular/core';
import type * as z from 'zod';
import {
  AnalyticsBreakdown,
  AnalyticsSummary,
  AnalyticsTimeseries,
  BreakdownBy,
  TurnsPage,
} from '../../../contract/usage';
import { ApiClient } from '../core/api-client';

export type AnalyticsQuery = Record<string, string>;
export type TurnsPageData = z.infer<typeof TurnsPage>;
export type ExportFormat = 'csv' | 'json';

/** The analytics resource of the daemon: figures of a filtered scope, its turns, and their export. */
@Injectable({ providedIn: 'root' })
export class AnalyticsApi {
  private readonly api = inject(ApiClient);

  summary(query: AnalyticsQuery): Promise<AnalyticsSummary> {
    return this.api.read('/api/analytics/summary', AnalyticsSummary, query);
  }

  timeseries(query: AnalyticsQuery, maxPoints: number): Promise<AnalyticsTimeseries> {
    return this.api.read('/api/analytics/timeseries', AnalyticsTimeseries, {
      ...query,
      max_points: String(maxPoints),
    });
  }

  breakdown(query: AnalyticsQuery, by: BreakdownBy): Promise<AnalyticsBreakdown> {
    return this.api.read('/api/analytics/breakdown', AnalyticsBreakdown, { ...query, by });
  }

  turns(query: AnalyticsQuery, limit: number, cursor: string | null): Promise<TurnsPageData> {
    return this.api.read('/api/analytics/turns', TurnsPage, {
      ...query,
      limit: String(limit),
      ...(cursor ? { cursor } : {}),
    });
  }

  /** The filtered turns as a file: fetched with the key in the header, never in a URL. */
  export(query: AnalyticsQuery, format: ExportFormat): Promise<Blob> {
    return this.api.download('/api/analytics/export', { ...query, format });
  }
}
