import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteScope } from '../../../contract/keys.js';
import { apiError } from './errors.js';

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);

export interface GuardOptions {
  apiKey: string;
  port: () => number;
  devOrigins: string[];
  /**
   * Checks a presented key that is not the owner's: throws `key_invalid`, `key_expired` or
   * `scope_missing` (a route without a scope is the owner's alone). Without it only the owner's
   * key is accepted.
   */
  callerKey?: (
    presented: string,
    scope: RouteScope | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ) => void;
}

/** What a route declares about its access, in Fastify's route config (see RouteTable.register). */
export interface RouteAccess {
  /** True only for routes that answer without the key; anything else requires it. */
  public?: boolean;
  /** The scope a caller key needs; none: the owner's key alone. */
  scope?: RouteScope | undefined;
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

/**
 * The key of the one Authorization header, `Bearer` in any case (RFC 9110: the scheme is
 * case-insensitive; the key is compared exactly). Node keeps only the first of repeated
 * Authorization headers, so they are counted in the raw list: two are refused, never guessed at.
 * Keys are read from this header only: never a query string or a cookie.
 */
export function bearer(request: FastifyRequest): string | null {
  const raw = request.raw.rawHeaders;
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() === 'authorization') count++;
  if (count !== 1) return null;
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Bearer[ \t]+([\x21-\x7e]+)[ \t]*$/i.exec(header);
  return match ? match[1]! : null;
}

/**
 * DNS-rebinding, cross-origin and key checks, on every request once routed. Order: Host, then
 * Origin, then the key (for every route not declared public): the owner's, or a caller key holding
 * the scope the route declares.
 */
export function installGuards(app: FastifyInstance, options: GuardOptions): void {
  app.addHook('onRequest', async (request, reply) => {
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
    if (presented === null) throw apiError('unauthorized');
    if (keyMatches(presented, options.apiKey)) return;
    if (!options.callerKey) throw apiError('key_invalid');
    const access = request.routeOptions.config as RouteAccess | undefined;
    options.callerKey(presented, access?.scope, request, reply);
  });
}
