import type { KeyScope } from '../../../contract/keys';

/** What each scope lets a caller do, in the words the Access page and its list use. */
export const SCOPE_TEXT: Record<KeyScope, string> = {
  read: $localize`Read its own sessions: events, prompts, analytics`,
  'read:all': $localize`Read every session, not only its own`,
  launch: $localize`Launch sessions under its own name, on the subscriptions ticked below`,
  steer: $localize`Send, queue, interrupt, extend and stop its own sessions`,
  decide: $localize`Answer the prompts and questions of sessions others launched`,
  decide_own: $localize`Also answer the prompts of the sessions it launched itself: no person sees them first`,
  metrics: $localize`Read the metrics endpoint (for a scraper)`,
};

export const SCOPES = Object.keys(SCOPE_TEXT) as KeyScope[];

/** Lifetimes offered at creation, in days; null: no expiry. */
export const EXPIRIES: readonly { label: string; days: number | null }[] = [
  { label: $localize`:key lifetime:Never`, days: null },
  { label: $localize`:key lifetime:1 day`, days: 1 },
  { label: $localize`:key lifetime:7 days`, days: 7 },
  { label: $localize`:key lifetime:30 days`, days: 30 },
  { label: $localize`:key lifetime:90 days`, days: 90 },
  { label: $localize`:key lifetime:1 year`, days: 365 },
];

export type KeyStatus = 'active' | 'expired' | 'revoked';

export function keyStatus(
  key: { revoked_at: string | null; expires_at: string | null },
  now: number,
): KeyStatus {
  if (key.revoked_at) return 'revoked';
  if (key.expires_at && Date.parse(key.expires_at) <= now) return 'expired';
  return 'active';
}
