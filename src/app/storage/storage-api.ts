import { HttpClient } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import { firstValueFrom, map } from 'rxjs';
import { ConversationStorage, RecycleResult, StorageReport } from '../../../contract/operations';

/** The storage resource: the report, per-conversation compress/delete, and the recycling job. */
@Injectable({ providedIn: 'root' })
export class StorageApi {
  private readonly http = inject(HttpClient);

  report(limit = 100): Promise<StorageReport> {
    return firstValueFrom(
      this.http
        .get<unknown>('/api/storage', { params: { limit } })
        .pipe(map((raw) => StorageReport.parse(raw))),
    );
  }

  compress(sessionId: string): Promise<ConversationStorage> {
    return firstValueFrom(
      this.http
        .post<unknown>(`/api/storage/conversations/${encodeURIComponent(sessionId)}/compress`, {})
        .pipe(map((raw) => ConversationStorage.parse(raw))),
    );
  }

  async remove(sessionId: string): Promise<void> {
    await firstValueFrom(
      this.http.delete(`/api/storage/conversations/${encodeURIComponent(sessionId)}`),
    );
  }

  recycle(): Promise<RecycleResult> {
    return firstValueFrom(
      this.http
        .post<unknown>('/api/storage/recycle', {})
        .pipe(map((raw) => RecycleResult.parse(raw))),
    );
  }
}
