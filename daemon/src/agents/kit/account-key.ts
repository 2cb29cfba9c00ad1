import { createHash } from 'node:crypto';

/**
 * A fingerprint of who an account is, the same for every agent (its e-mail and organization):
 * two subscriptions logged into one account share their quota.
 */
export function accountKeyOf(account: Record<string, unknown>): string | null {
  const email = typeof account['email'] === 'string' ? account['email'].toLowerCase() : '';
  const organization = typeof account['organization'] === 'string' ? account['organization'] : '';
  if (!email && !organization) return null;
  return createHash('sha256').update(`${email}\n${organization}`).digest('hex').slice(0, 16);
}
