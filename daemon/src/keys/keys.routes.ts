import { listOf } from '../../../contract/api.js';
import { ApiKey, ApiKeyCreate, ApiKeyCreated } from '../../../contract/keys.js';
import { IdParams, type RouteTable } from '../http/route.js';
import type { KeyService } from './key-service.js';

/** Caller keys: the owner's alone (no scope declared), like every setting. */
export function keyRoutes(table: RouteTable, keys: KeyService): void {
  const tag = 'keys';
  table.add({
    method: 'POST',
    url: '/api/keys',
    tag,
    summary:
      'Create a caller key: its name (the app name of what it launches), scopes, subscriptions, expiry; the answer carries the secret, this once',
    status: 201,
    errors: [409],
    body: ApiKeyCreate,
    response: ApiKeyCreated,
    handler: ({ body }) => keys.create(body),
  });
  table.add({
    method: 'GET',
    url: '/api/keys',
    tag,
    summary: 'Caller keys, newest first, with their last use (never their secrets)',
    response: listOf(ApiKey),
    handler: () => ({ items: keys.list(), next_cursor: null }),
  });
  table.add({
    method: 'DELETE',
    url: '/api/keys/:id',
    tag,
    summary: 'Revoke a caller key: refused from now on, and its open streams end at once',
    errors: [404],
    params: IdParams,
    response: ApiKey,
    handler: ({ params }) => keys.revoke(params.id),
  });
}
