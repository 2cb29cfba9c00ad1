import { randomBytes } from 'node:crypto';

/** Opaque, sortable-by-creation ids: a prefix, a base36 time and random bits. */
export function newId(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}${randomBytes(8).toString('hex')}`;
}

export function nowIso(ms: number = Date.now()): string {
  return new Date(ms).toISOString();
}
