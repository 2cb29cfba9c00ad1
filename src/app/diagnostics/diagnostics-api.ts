import { HttpClient } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import { Observable, firstValueFrom, map } from 'rxjs';
import * as z from 'zod';
import {
  Diagnostics,
  LogEntry,
  LogPage,
  LogStreamLine,
  VersionCard,
} from '../../../contract/operations';
import { ApiKey } from '../core/api-key';
import { StreamMessage, ndjsonStream } from '../core/live-stream';
import { LogFilters, logPageParams, logStreamUrl } from './log-filters';

const VersionList = z.object({ items: z.array(VersionCard) });
export type LogPageData = z.infer<typeof LogPage>;

/** The diagnostics resource: the engine at a glance, version cards, logs and their live tail. */
@Injectable({ providedIn: 'root' })
export class DiagnosticsApi {
  private readonly http = inject(HttpClient);
  private readonly apiKey = inject(ApiKey);

  get(): Promise<Diagnostics> {
    return firstValueFrom(
      this.http.get<unknown>('/api/diagnostics').pipe(map((raw) => Diagnostics.parse(raw))),
    );
  }

  versions(refresh: boolean): Promise<VersionCard[]> {
    return firstValueFrom(
      this.http
        .get<unknown>('/api/versions', { params: { refresh: String(refresh) } })
        .pipe(map((raw) => VersionList.parse(raw).items)),
    );
  }

  logs(filters: LogFilters, before: string | null, limit = 100): Promise<LogPageData> {
    return firstValueFrom(
      this.http
        .get<unknown>('/api/logs', { params: logPageParams(filters, before, limit) })
        .pipe(map((raw) => LogPage.parse(raw))),
    );
  }

  /** New log lines as they are written; reconnects by itself and never errors. */
  tail(filters: LogFilters): Observable<StreamMessage<LogEntry>> {
    return ndjsonStream<LogEntry>({
      url: () => logStreamUrl(filters),
      key: () => this.apiKey.key(),
      parse: (raw) => {
        const line = LogStreamLine.safeParse(raw);
        return line.success && line.data.type === 'log' ? line.data.log : null;
      },
      // Drops a line seen twice across a reconnection.
      seqOf: (log) => log.id,
    });
  }
}
