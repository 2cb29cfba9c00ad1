import { Injectable, inject } from '@angular/core';
import { listOf } from '../../../contract/api';
import { ApiKey, ApiKeyCreate, ApiKeyCreated } from '../../../contract/keys';
import { ApiClient } from '../core/api-client';

const KeyList = listOf(ApiKey);

/** The caller keys: create (the secret comes back once), list, revoke. */
@Injectable({ providedIn: 'root' })
export class AccessApi {
  private readonly api = inject(ApiClient);

  async list(): Promise<ApiKey[]> {
    return (await this.api.read('/api/keys', KeyList)).items;
  }

  create(body: ApiKeyCreate): Promise<ApiKeyCreated> {
    return this.api.write('POST', '/api/keys', ApiKeyCreated, body);
  }

  revoke(id: string): Promise<void> {
    return this.api.remove(`/api/keys/${encodeURIComponent(id)}`);
  }
}
