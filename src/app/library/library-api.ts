import { Injectable, inject } from '@angular/core';
import {
  Instructions,
  InstructionsList,
  LibraryCreate,
  LibraryItem,
  LibraryList,
  LibraryPatch,
} from '../../../contract/library';
import { ApiClient } from '../core/api-client';

/** The library (skills, commands) and the permanent instructions of the daemon. */
@Injectable({ providedIn: 'root' })
export class LibraryApi {
  private readonly api = inject(ApiClient);

  async list(
    filter: { subscriptionId?: string; kind?: 'skill' | 'command' } = {},
  ): Promise<LibraryItem[]> {
    const query: Record<string, string> = {};
    if (filter.subscriptionId) query['subscription_id'] = filter.subscriptionId;
    if (filter.kind) query['kind'] = filter.kind;
    return (await this.api.read('/api/library', LibraryList, query)).items;
  }

  create(body: LibraryCreate): Promise<LibraryItem> {
    return this.api.write('POST', '/api/library', LibraryItem, body);
  }

  update(id: string, change: LibraryPatch): Promise<LibraryItem> {
    return this.api.write('PATCH', item(id), LibraryItem, change);
  }

  remove(id: string): Promise<void> {
    return this.api.remove(item(id));
  }

  async instructions(): Promise<Instructions[]> {
    return (await this.api.read('/api/instructions', InstructionsList)).items;
  }

  saveInstructions(scope: string, text: string): Promise<Instructions> {
    return this.api.write('PUT', '/api/instructions', Instructions, { scope, text });
  }
}

function item(id: string): string {
  return `/api/library/${encodeURIComponent(id)}`;
}
