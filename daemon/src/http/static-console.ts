import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { apiError } from './errors.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self' data:; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/**
 * Serves the built console: a known file as is, any other path without an extension as
 * index.html (client-side routes). /api paths never reach here.
 */
export function installConsole(app: FastifyInstance, consoleDir: string | null): void {
  app.setNotFoundHandler((request, reply) => {
    const path = decodeURIComponent(request.url.split('?')[0] ?? '/');
    if (path.startsWith('/api/') || path === '/api' || request.method !== 'GET' || !consoleDir) {
      throw apiError('route_not_found');
    }
    const index = join(consoleDir, 'index.html');
    if (!existsSync(index))
      throw apiError('route_not_found', 'The console is not built; run `npm run build:console`.');
    const candidate = normalize(join(consoleDir, path));
    const inside = candidate === consoleDir || candidate.startsWith(consoleDir + sep);
    const file = inside && existsSync(candidate) && statSync(candidate).isFile() ? candidate : null;
    if (!file && extname(path) !== '') throw apiError('not_found');
    const served = file ?? index;
    reply.headers(PAGE_HEADERS);
    reply.header(
      'cache-control',
      served === index ? 'no-cache' : 'public, max-age=31536000, immutable',
    );
    return reply
      .type(TYPES[extname(served)] ?? 'application/octet-stream')
      .send(readFileSync(served));
  });
}
