import { Injectable, inject } from '@angular/core';
import { ConversationStorage, RecycleResult, StorageReport } from '../../../contract/operations';
import { ApiClient } from '../core/api-client';

/** The storage resource: the report, per-conversation compress/delete, and the recycling job. */
@Injectable({ providedIn: 'root' })
export class StorageApi {
  private readonly api = inject(ApiClient);

  report(limit = 100): Promise<StorageReport> {
    return this.api.read('/api/storage', StorageReport, { limit: String(limit) });
  }

  compress(sessionId: string): Promise<ConversationStorage> {
    return this.api.write('POST', `${conversation(sessionId)}/compress`, ConversationStorage, {});
  }

  remove(sessionId: string): Promise<void> {
    return this.api.remove(conversation(sessionId));
  }

  recycle(): Promise<RecycleResult> {
    return this.api.write('POST', '/api/storage/recycle', RecycleResult, {});
  }
}

function conversation(sessionId: string): string {
  return `/api/storage/conversations/${encodeURIComponent(sessionId)}`;
}
