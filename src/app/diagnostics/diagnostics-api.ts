import { Injectable, inject } from '@angular/core';
import type { Observable } from 'rxjs';
import * as z from 'zod';
import {
  Diagnostics,
  LogEntry,
  LogPage,
  LogStreamLine,
  VersionCard,
} from '../../../contract/operations';
import { ApiClient } from '../core/api-client';
import { ApiKey } from '../core/api-key';
import { StreamMessage, ndjsonStream } from '../core/live-stream';
import { LogFilters, logPageParams, logStreamUrl } from './log-filters';

const VersionList = z.object({ items: z.array(VersionCard) });
export type LogPageData = z.infer<typeof LogPage>;

/** The diagnostics resource: the engine at a glance, version cards, logs and their live tail. */
@Injectable({ providedIn: 'root' })
export class DiagnosticsApi {
  private readonly api = inject(ApiClient);
  private readonly apiKey = inject(ApiKey);

  get(): Promise<Diagnostics> {
    return this.api.read('/api/diagnostics', Diagnostics);
  }

  async versions(refresh: boolean): Promise<VersionCard[]> {
    const list = await this.api.read('/api/versions', VersionList, { refresh: String(refresh) });
    return list.items;
  }

  logs(filters: LogFilters, before: string | null, limit = 100): Promise<LogPageData> {
    return this.api.read('/api/logs', LogPage, logPageParams(filters, before, limit));
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
