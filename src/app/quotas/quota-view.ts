import { QuotaWindow, SubscriptionQuota } from '../../../contract/usage';
import { countdown } from '../shared/time-format';

export type QuotaLevel = 'ok' | 'high' | 'full';

/** One quota window as the card shows it. A stale or unknown reading is never shown as 0 %. */
export interface WindowView {
  key: string;
  name: string;
  status: QuotaWindow['status'];
  /** Bar fill, 0–100; null when unknown (no bar drawn). */
  fill: number | null;
  /** The reading, rounded; null when unknown. */
  percent: number | null;
  percentText: string;
  statusText: string;
  resetText: string;
  readText: string;
  level: QuotaLevel;
}

const NAMES: Record<string, string> = {
  five_hour: $localize`5-hour window`,
  seven_day: $localize`7-day window`,
  seven_day_opus: $localize`7-day window (Opus)`,
  seven_day_sonnet: $localize`7-day window (Sonnet)`,
  seven_day_oauth_apps: $localize`7-day window (OAuth apps)`,
};

/** `five_hour` → `5-hour window`; an unknown name is shown as the provider spelled it, spaced. */
export function windowName(window: string): string {
  return NAMES[window] ?? window.replace(/_/g, ' ');
}

/** `read just now`, `read 1 min ago`, `read 14 min ago`, `read 2 h 5 min ago`, `never read`. */
export function readAgo(readAt: string | null, nowMs: number): string {
  if (!readAt) return $localize`never read`;
  const minutes = Math.floor(Math.max(0, nowMs - Date.parse(readAt)) / 60_000);
  if (minutes < 1) return $localize`read just now`;
  if (minutes < 60) return $localize`read ${minutes}:minutes: min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return $localize`read ${hours}:hours: h ${minutes % 60}:minutes: min ago`;
  return $localize`read ${Math.floor(hours / 24)}:days: days ago`;
}

/** `resets in 2h 14m`, `reset time passed`, or `reset time unknown`. */
export function resetIn(resetsAt: string | null, nowMs: number): string {
  if (!resetsAt) return $localize`reset time unknown`;
  const left = Date.parse(resetsAt) - nowMs;
  return left > 0 ? $localize`resets in ${countdown(left)}:left:` : $localize`reset time passed`;
}

export function describeWindow(window: QuotaWindow, nowMs: number): WindowView {
  const known = window.status !== 'unknown' && window.utilization !== null;
  const percent = known ? Math.round(window.utilization as number) : null;
  const readText = readAgo(window.read_at, nowMs);
  let statusText: string;
  if (!known) statusText = 'Unknown: no reading yet';
  else if (window.status === 'stale') statusText = `Stale: ${readText}, may be out of date`;
  else statusText = $localize`Up to date`;
  return {
    key: window.window,
    name: windowName(window.window),
    status: known ? window.status : 'unknown',
    fill: percent === null ? null : Math.min(100, Math.max(0, percent)),
    percent,
    percentText: percent === null ? 'Unknown' : `${percent} %`,
    statusText,
    resetText: resetIn(window.resets_at, nowMs),
    readText,
    level: percent === null || percent < 80 ? 'ok' : percent < 95 ? 'high' : 'full',
  };
}

/** What the card says about how the subscription's readings are obtained. */
export function pollText(quota: SubscriptionQuota, nowMs: number): string {
  const poll = quota.poll;
  if (!poll.enabled) return $localize`No OAuth token: read only from what the agent reports`;
  if (poll.last_error) {
    const next = poll.next_attempt_at
      ? `, next try in ${countdown(Date.parse(poll.next_attempt_at) - nowMs)}`
      : '';
    return $localize`Last poll failed (${poll.last_error})${next}`;
  }
  return $localize`Polling the usage endpoint`;
}
