import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * A caller key reads `relais_<id>_<secret>`: the id (not secret) finds the row, the 32 random
 * bytes (base64url) are the secret. Only the SHA-256 of the whole string is stored.
 */
const SHAPE = /^relais_([0-9a-z]{8,40})_([A-Za-z0-9_-]{43})$/;
export const KEY_ID_PREFIX = 'key_';

export function newSecret(keyId: string): string {
  return `relais_${keyId.slice(KEY_ID_PREFIX.length)}_${randomBytes(32).toString('base64url')}`;
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** The key id a presented secret names, or null when it is not shaped like a caller key. */
export function keyIdOf(presented: string): string | null {
  const match = SHAPE.exec(presented);
  return match ? `${KEY_ID_PREFIX}${match[1]}` : null;
}

/** Compares the presented secret's hash with the stored one in constant time. */
export function secretMatches(presented: string, storedHash: string): boolean {
  const a = Buffer.from(hashSecret(presented), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Enough of the secret to recognise it in a list, never enough to use it. */
export const displayPrefix = (secret: string): string => `${secret.slice(0, -39)}…`;
