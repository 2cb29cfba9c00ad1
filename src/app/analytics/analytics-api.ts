import { HttpClient } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import { firstValueFrom, map } from 'rxjs';
import * as z from 'zod';
import { withJsonErrorBody } from '../core/api-error';
import {
  AnalyticsBreakdown,
  AnalyticsSummary,
  AnalyticsTimeseries,
  BreakdownBy,
  TurnsPage,
} from '../../../contract/usage';

export type AnalyticsQuery = Record<string, string>;
export type TurnsPageData = z.infer<typeof TurnsPage>;
export type ExportFormat = 'csv' | 'json';

/** The analytics resource of the daemon: figures of a filtered scope, its turns, and their export. */
@Injectable({ providedIn: 'root' })
export class AnalyticsApi {
  private readonly http = inject(HttpClient);

  summary(query: AnalyticsQuery): Promise<AnalyticsSummary> {
    return this.read('/api/analytics/summary', AnalyticsSummary, query);
  }

  timeseries(query: AnalyticsQuery, maxPoints: number): Promise<AnalyticsTimeseries> {
    return this.read('/api/analytics/timeseries', AnalyticsTimeseries, {
      ...query,
      max_points: String(maxPoints),
    });
  }

  breakdown(query: AnalyticsQuery, by: BreakdownBy): Promise<AnalyticsBreakdown> {
    return this.read('/api/analytics/breakdown', AnalyticsBreakdown, { ...query, by });
  }

  turns(query: AnalyticsQuery, limit: number, cursor: string | null): Promise<TurnsPageData> {
    return this.read('/api/analytics/turns', TurnsPage, {
      ...query,
      limit: String(limit),
      ...(cursor ? { cursor } : {}),
    });
  }

  /** The filtered turns as a file: fetched with the key in the header, never in a URL. */
  export(query: AnalyticsQuery, format: ExportFormat): Promise<Blob> {
    return firstValueFrom(
      this.http.get('/api/analytics/export', {
        params: { ...query, format },
        responseType: 'blob',
      }),
    ).catch(async (error: unknown) => Promise.reject(await withJsonErrorBody(error)));
  }

  private read<S extends z.ZodType>(
    url: string,
    schema: S,
    params: Record<string, string>,
  ): Promise<z.infer<S>> {
    return firstValueFrom(
      this.http.get<unknown>(url, { params }).pipe(map((raw) => schema.parse(raw))),
    );
  }
}
