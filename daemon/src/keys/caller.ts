import type { FastifyRequest } from 'fastify';
import type { CallerRef } from '../../../contract/api.js';
import type { KeyScope, RouteScope } from '../../../contract/keys.js';
import type { StoredKey } from './keys-repo.js';

/** The caller key a request was made with; requests with the owner key have none. */
const callers = new WeakMap<FastifyRequest, StoredKey>();

export function setCallerKey(request: FastifyRequest, key: StoredKey): void {
  callers.set(request, key);
}

export function callerKey(request: FastifyRequest): StoredKey | null {
  return callers.get(request) ?? null;
}

export function callerRef(request: FastifyRequest): CallerRef | null {
  const key = callerKey(request);
  return key ? { id: key.id, name: key.name } : null;
}

/**
 * The key whose own sessions are all this request may read, or null when it may read every
 * session (the owner, or a key with `read:all`).
 */
export function readerConfinedTo(request: FastifyRequest): string | null {
  const key = callerKey(request);
  return key && !key.scopes.includes('read:all') ? key.id : null;
}

/** Which held scopes satisfy a route's declaration. */
const SATISFIED_BY: Record<RouteScope, KeyScope[]> = {
  read: ['read', 'read:all'],
  launch: ['launch'],
  steer: ['steer'],
  decide: ['decide'],
  metrics: ['metrics'],
};

export function holdsScope(scopes: readonly KeyScope[], needed: RouteScope): boolean {
  return SATISFIED_BY[needed].some((scope) => scopes.includes(scope));
}

/** The app name a request speaks for: a caller key's name, never a name it declares. */
export function callerApp(request: FastifyRequest): string | null {
  return callerKey(request)?.name ?? null;
}
