import { z } from 'zod';
import { Health } from '../../../contract/api.js';
import { buildOpenApi } from './openapi.js';
import type { RouteTable } from './route.js';

export function systemRoutes(table: RouteTable, version: string): void {
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
    handler: () => buildOpenApi(table, version),
  });
}
