import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEMO_QUOTA_TOKEN } from '../../daemon/src/quotas/quota-config.js';

/**
 * What the next GET /api/oauth/usage answers:
 * - `ok`: the classic window keys with the current `windows` figures, read now;
 * - `rate_limited`: 429 with `retry-after: retryAfterSeconds` (the real endpoint answers 429 readily);
 * - `error`: 500;
 * - `frozen`: 200 with the figures captured when it was set, as a stuck upstream cache would.
 */
export type QuotaMode = 'ok' | 'rate_limited' | 'error' | 'frozen';

export interface FakeWindow {
  utilization: number;
  resets_at: string;
}

export interface QuotaScript {
  mode: QuotaMode;
  retryAfterSeconds: number;
  /** Percent 0–100, as the endpoint reports. */
  windows: Record<string, FakeWindow | null>;
  /** Only this bearer token is accepted (401 otherwise). */
  token: string;
}

/** Tokens of one model answer, as the Messages API reports them. */
export interface MeteredUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

/** Percent of each window per 1000 units (input + 5 × output + 1.25 × cache write + 0.1 × cache read). */
export type QuotaMeter = Record<string, number>;

/**
 * The demo subscription's meter: a two-line demo session (about 200 units) takes 0.2 % of the
 * five-hour window, `demo:heavy 10000` about 10 %.
 */
export const DEMO_METER: QuotaMeter = { five_hour: 1, seven_day: 0.25 };

const WINDOW_MS: Record<string, number> = { five_hour: 5 * 3_600_000, seven_day: 7 * 86_400_000 };

export interface QuotaEndpoint {
  url: string;
  script: QuotaScript;
  /**
   * Counts a model answer against the windows (with a meter): utilization rises by the meter's
   * rate, and a window past its reset starts over at 0 % for its length.
   */
  consume(usage: MeteredUsage): void;
  requests: {
    path: string;
    authorization: string | undefined;
    beta: string | undefined;
    status: number;
  }[];
  close(): Promise<void>;
}

export { DEMO_QUOTA_TOKEN };

export function defaultWindows(now = Date.now()): Record<string, FakeWindow | null> {
  return {
    five_hour: { utilization: 24, resets_at: new Date(now + 3 * 3600_000).toISOString() },
    seven_day: { utilization: 36, resets_at: new Date(now + 4 * 86_400_000).toISOString() },
    seven_day_opus: null,
  };
}

/** A scripted fake of Anthropic's OAuth usage endpoint (PROTOCOLS §4.1) on loopback. */
export async function startQuotaEndpoint(
  options: { port?: number; script?: Partial<QuotaScript>; meter?: QuotaMeter } = {},
): Promise<QuotaEndpoint> {
  const script: QuotaScript = {
    mode: 'ok',
    retryAfterSeconds: 60,
    windows: defaultWindows(),
    token: DEMO_QUOTA_TOKEN,
    ...options.script,
  };
  const requests: QuotaEndpoint['requests'] = [];
  const meter = metering(script, options.meter ?? null);
  const server = createServer(usageAnswerer(script, requests, meter.rollOver));
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    script,
    requests,
    consume: meter.consume,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface Metering {
  /** Starts each window past its reset over at 0 %. */
  rollOver(now: number): void;
  consume(usage: MeteredUsage): void;
}

/** Moves the script's windows as model answers are counted; does nothing without a meter. */
function metering(script: QuotaScript, meter: QuotaMeter | null): Metering {
  /** Exact figures: the endpoint reports whole percents, as the real one does. */
  const exact = new Map<string, number>();
  const rollOver = (now: number): void => {
    if (!meter) return;
    for (const [name, window] of Object.entries(script.windows)) {
      const length = WINDOW_MS[name];
      if (!window || !length || Date.parse(window.resets_at) > now) continue;
      script.windows[name] = { utilization: 0, resets_at: new Date(now + length).toISOString() };
      exact.set(name, 0);
    }
  };
  const consume = (usage: MeteredUsage): void => {
    if (!meter) return;
    rollOver(Date.now());
    const units =
      usage.input_tokens +
      5 * usage.output_tokens +
      1.25 * usage.cache_creation_input_tokens +
      0.1 * usage.cache_read_input_tokens;
    for (const [name, per1k] of Object.entries(meter)) {
      const window = script.windows[name];
      if (!window) continue;
      // A figure a test set by hand is the new starting point.
      const base =
        Math.round(exact.get(name) ?? window.utilization) === window.utilization
          ? (exact.get(name) ?? window.utilization)
          : window.utilization;
      const next = base + (units * per1k) / 1000;
      exact.set(name, next);
      window.utilization = Math.round(next);
    }
  };
  return { rollOver, consume };
}

type Answer = [status: number, body: unknown, headers?: Record<string, string>];

/** Answers each request as the script says, noting each in `requests` (the last 1000). */
function usageAnswerer(
  script: QuotaScript,
  requests: QuotaEndpoint['requests'],
  rollOver: (now: number) => void,
): (req: IncomingMessage, res: ServerResponse) => void {
  let frozen: string | null = null;
  const usage = (): Answer => {
    rollOver(Date.now());
    const body = {
      ...script.windows,
      extra_usage: {
        is_enabled: false,
        monthly_limit: null,
        used_credits: null,
        utilization: null,
      },
    };
    if (script.mode === 'frozen') return [200, (frozen ??= JSON.stringify(body))];
    frozen = null;
    return [200, body];
  };
  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const [status, body, headers = {}] = refusal(req, path, script) ?? usage();
    requests.push({
      path,
      authorization: req.headers.authorization,
      beta: req.headers['anthropic-beta'] as string | undefined,
      status,
    });
    if (requests.length > 1000) requests.shift();
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
}

/** The error the request gets (unknown path, missing token or beta header, scripted failure), if any. */
function refusal(req: IncomingMessage, path: string, script: QuotaScript): Answer | null {
  if (req.method !== 'GET' || path !== '/api/oauth/usage')
    return [404, { type: 'error', error: { type: 'not_found_error', message: 'Not found' } }];
  if (
    req.headers.authorization !== `Bearer ${script.token}` ||
    req.headers['anthropic-beta'] !== 'oauth-2025-04-20'
  ) {
    return [
      401,
      { type: 'error', error: { type: 'authentication_error', message: 'OAuth token required' } },
    ];
  }
  if (script.mode === 'rate_limited') {
    return [
      429,
      { type: 'error', error: { type: 'rate_limit_error', message: 'Rate limited' } },
      { 'retry-after': String(script.retryAfterSeconds) },
    ];
  }
  if (script.mode === 'error')
    return [500, { type: 'error', error: { type: 'api_error', message: 'Internal error' } }];
  return null;
}
