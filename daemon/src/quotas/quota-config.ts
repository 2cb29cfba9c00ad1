/** The bearer token the demo subscription's usage endpoint expects (the scripted one checks it). */
export const DEMO_QUOTA_TOKEN = 'relais-demo-oauth-token';

export interface QuotaConfig {
  /** Base URL of the provider's usage endpoint for real subscriptions. */
  baseUrl: string;
  /** Base URL the demo subscription asks; null = start the scripted fake on loopback. */
  demoUrl: string | null;
  pollMs: number;
  /** The demo's endpoint is on loopback and free to ask: polled often, so its window visibly moves. */
  demoPollMs: number;
  /** A reading older than this is `stale`. */
  staleAfterMs: number;
  /** Admission refuses when reading + reservations would pass this percentage. */
  admissionThreshold: number;
  /** Longest wait after failures (a 429's retry-after is honoured even when longer). */
  maxBackoffMs: number;
}

function num(value: string | undefined, fallback: number): number {
  const parsed = value === undefined || value === '' ? NaN : Number(value);
  return Number.isFinite(parsed) && parsed >= 0 ? parsed : fallback;
}

/** Read from the environment: config.ts belongs to the foundation, these knobs to the quota module. */
export function quotaConfigFromEnv(env: NodeJS.ProcessEnv = process.env): QuotaConfig {
  return {
    baseUrl: (env['RELAIS_QUOTA_BASE_URL'] || 'https://api.anthropic.com').replace(/\/+$/, ''),
    demoUrl: env['RELAIS_QUOTA_DEMO_URL'] || null,
    pollMs: num(env['RELAIS_QUOTA_POLL_SECONDS'], 300) * 1000,
    demoPollMs: num(env['RELAIS_QUOTA_DEMO_POLL_SECONDS'], 15) * 1000,
    staleAfterMs: num(env['RELAIS_QUOTA_STALE_SECONDS'], 600) * 1000,
    admissionThreshold: num(env['RELAIS_ADMISSION_THRESHOLD'], 95),
    maxBackoffMs: num(env['RELAIS_QUOTA_MAX_BACKOFF_SECONDS'], 1800) * 1000,
  };
}
