const pad = (value: number, width = 2): string => String(value).padStart(width, '0');

/** A value made on first use: building the formats costs nothing until a time is shown. */
function lazy<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

/**
 * Times follow the browser's language: its order of day and month, its 12 or 24 hours. Each format
 * is made once, on first use (Intl formatters are costly to build, cheap to use; the page's first
 * one also loads the locale's data, which `public/date-format-warm-up.js` does before the app runs).
 */
const CLOCK = lazy(
  () =>
    new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' }),
);
const DAY_AND_CLOCK = lazy(
  () =>
    new Intl.DateTimeFormat(undefined, {
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    }),
);
const DATE_AND_MINUTE = lazy(
  () =>
    new Intl.DateTimeFormat(undefined, {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
    }),
);

/** Local time to the second, in the browser's format: `14:03:22` (or `02:03:22 PM`). */
export function clockTime(ms: number): string {
  return CLOCK().format(ms);
}

/**
 * A time in a list or a conversation: the clock alone on the day it is read, the day and the clock
 * on any other day, so a list that spans midnight (or weeks) says which day each line is from.
 */
export function listTime(ms: number, nowMs = Date.now()): string {
  return sameLocalDay(ms, nowMs) ? CLOCK().format(ms) : DAY_AND_CLOCK().format(ms);
}

/** A date with its time to the minute, in the browser's format: `Dec 1, 2026, 14:03`. */
export function dateAndMinute(ms: number): string {
  return DATE_AND_MINUTE().format(ms);
}

function sameLocalDay(a: number, b: number): boolean {
  const x = new Date(a);
  const y = new Date(b);
  return (
    x.getFullYear() === y.getFullYear() &&
    x.getMonth() === y.getMonth() &&
    x.getDate() === y.getDate()
  );
}

/** Full local date and time, with the offset from UTC: `2026-11-30 14:03:22.123 (UTC+01:00)`. */
export function fullDateTime(ms: number): string {
  const date = new Date(ms);
  const offset = -date.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const abs = Math.abs(offset);
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)} (UTC${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)})`
  );
}

/** A short human duration: `45s`, `12m 5s`, `3h 20m`, `2d 4h`. Negative durations count as zero. */
export function shortDuration(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${seconds % 60}s`;
  return hoursText(Math.floor(minutes / 60), minutes % 60);
}

/**
 * Time left to a deadline at a step of one minute (`3h 20m`, `42m`, `under 1m`), rounded up, so
 * that a countdown on screen changes once a minute rather than every second.
 */
export function countdown(ms: number): string {
  if (ms <= 0) return '0m';
  const minutes = Math.ceil(ms / 60_000);
  return minutes <= 1 ? 'under 1m' : minutesText(minutes);
}

/**
 * Time since a moment at a step of one minute (`under 1m`, `12m`, `3h 20m`, `2d 4h`), rounded
 * down: an age on screen changes once a minute, not every second.
 */
export function elapsed(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  return minutes < 1 ? 'under 1m' : minutesText(minutes);
}

/** Whole minutes as `42m`, `3h 20m`, `2d 4h`. */
function minutesText(minutes: number): string {
  if (minutes < 60) return `${minutes}m`;
  return hoursText(Math.floor(minutes / 60), minutes % 60);
}

function hoursText(hours: number, minutes: number): string {
  return hours < 24 ? `${hours}h ${minutes}m` : `${Math.floor(hours / 24)}d ${hours % 24}h`;
}
