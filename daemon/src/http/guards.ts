import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiError } from './errors.js';

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);

export interface GuardOptions {
  apiKey: string;
  port: () => number;
  devOrigins: string[];
}

/** What a route declares about its access, in Fastify's route config (see RouteTable.register). */
export interface RouteAccess {
  /** True only for routes that answer without the key; anything else requires it. */
  public?: boolean;
}

/**
 * Decided on the route the router matched, never on the URL text: a route needs the key unless it
 * declared itself public. Unmatched requests go to the not-found handler, which only serves the
 * console's files or a JSON 404 and holds no data.
 */
export function requiresKey(request: FastifyRequest): boolean {
  if (request.is404) return false;
  const access = request.routeOptions.config as RouteAccess | undefined;
  return access?.public !== true;
}

/** Splits a Host header into name and port; null when it cannot be read. */
export function parseHost(host: string | undefined): { name: string; port: number | null } | null {
  if (!host) return null;
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(host.trim());
  if (!match) return null;
  return { name: match[1]!.toLowerCase(), port: match[2] ? Number(match[2]) : null };
}

export function isAllowedHost(host: string | undefined, port: number): boolean {
  const parsed = parseHost(host);
  return parsed !== null && LOOPBACK_NAMES.has(parsed.name) && parsed.port === port;
}

export function ownOrigins(port: number): string[] {
  return [...LOOPBACK_NAMES].map((name) => `http://${name}:${port}`);
}

/** Compares the presented key with the real one in constant time (both hashed to the same length). */
export function keyMatches(presented: string, actual: string): boolean {
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(actual).digest();
  return timingSafeEqual(a, b);
}

function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : null;
}

/**
 * DNS-rebinding, cross-origin and key checks, on every request once routed. Order: Host, then
 * Origin, then the key (for every route not declared public).
 */
export function installGuards(app: FastifyInstance, options: GuardOptions): void {
  app.addHook('onRequest', async (request) => {
    const port = options.port();
    if (!isAllowedHost(request.headers.host, port)) throw apiError('forbidden_host');
    const origin = request.headers.origin;
    if (
      origin !== undefined &&
      !ownOrigins(port).includes(origin) &&
      !options.devOrigins.includes(origin)
    ) {
      throw apiError('forbidden_origin');
    }
    if (!requiresKey(request)) return;
    const presented = bearer(request);
    if (presented === null || !keyMatches(presented, options.apiKey))
      throw apiError('unauthorized');
  });
}
