import { z } from 'zod';
import { Health } from '../../../contract/api.js';
import { buildOpenApi } from './openapi.js';
import type { RouteTable } from './route.js';

export function systemRoutes(table: RouteTable, version: string): void {
  // Built on the first ask, once every route is in the table (they are all added at start): a build
  // held the daemon 78 ms, and anyone with a key could ask for it again and again.
  let openApi: Record<string, unknown> | null = null;
  table.add({
    method: 'GET',
    url: '/api/health',
    tag: 'system',
    summary: 'Liveness only',
    public: true,
    response: Health,
    handler: () => ({ status: 'ok', version }),
  });
  table.add({
    method: 'GET',
    url: '/api/openapi.json',
    tag: 'system',
    summary: 'This OpenAPI document',
    response: z.record(z.string(), z.unknown()),
    handler: () => (openApi ??= buildOpenApi(table, version)),
  });
}
