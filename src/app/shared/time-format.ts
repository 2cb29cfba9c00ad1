import { dateFormat } from './locale-format';

const pad = (value: number, width = 2): string => String(value).padStart(width, '0');

/**
 * Times follow the console's language (shared/locale-format.ts): its order of day and month, its
 * 12 or 24 hours. Each format is made once, on first use (the page's first one would also load the
 * locale's data, a long task: `public/date-format-warm-up.js` loads it in a worker before).
 */
const CLOCK = { hour: '2-digit', minute: '2-digit', second: '2-digit' } as const;
const DAY_AND_CLOCK = { month: 'short', day: 'numeric', ...CLOCK } as const;
const DATE_AND_MINUTE = {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
} as const;

/** Local time to the second, in the browser's format: `14:03:22` (or `02:03:22 PM`). */
export function clockTime(ms: number): string {
  return dateFormat(CLOCK).format(ms);
}

/**
 * A time in a list or a conversation: the clock alone on the day it is read, the day and the clock
 * on any other day, so a list that spans midnight (or weeks) says which day each line is from.
 */
export function listTime(ms: number, nowMs = Date.now()): string {
  return dateFormat(sameLocalDay(ms, nowMs) ? CLOCK : DAY_AND_CLOCK).format(ms);
}

/** A date with its time to the minute, in the browser's format: `Dec 1, 2026, 14:03`. */
export function dateAndMinute(ms: number): string {
  return dateFormat(DATE_AND_MINUTE).format(ms);
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

/** Short durations in the console's language: `12m 5s`, `12 min 5 s`. */
const UNITS = {
  s: (s: number) => $localize`:short duration:${s}:seconds:s`,
  m: (m: number) => $localize`:short duration:${m}:minutes:m`,
  ms: (m: number, s: number) => $localize`:short duration:${m}:minutes:m ${s}:seconds:s`,
  hm: (h: number, m: number) => $localize`:short duration:${h}:hours:h ${m}:minutes:m`,
  dh: (d: number, h: number) => $localize`:short duration:${d}:days:d ${h}:hours:h`,
  under: $localize`:short duration:under 1m`,
};

/** A short human duration: `45s`, `12m 5s`, `3h 20m`, `2d 4h`. Negative durations count as zero. */
export function shortDuration(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return UNITS.s(seconds);
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return UNITS.ms(minutes, seconds % 60);
  return hoursText(Math.floor(minutes / 60), minutes % 60);
}

/**
 * Time left to a deadline at a step of one minute (`3h 20m`, `42m`, `under 1m`), rounded up, so
 * that a countdown on screen changes once a minute rather than every second.
 */
export function countdown(ms: number): string {
  if (ms <= 0) return UNITS.m(0);
  const minutes = Math.ceil(ms / 60_000);
  return minutes <= 1 ? UNITS.under : minutesText(minutes);
}

/**
 * Time since a moment at a step of one minute (`under 1m`, `12m`, `3h 20m`, `2d 4h`), rounded
 * down: an age on screen changes once a minute, not every second.
 */
export function elapsed(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  return minutes < 1 ? UNITS.under : minutesText(minutes);
}

/** Whole minutes as `42m`, `3h 20m`, `2d 4h`. */
function minutesText(minutes: number): string {
  if (minutes < 60) return UNITS.m(minutes);
  return hoursText(Math.floor(minutes / 60), minutes % 60);
}

function hoursText(hours: number, minutes: number): string {
  return hours < 24 ? UNITS.hm(hours, minutes) : UNITS.dh(Math.floor(hours / 24), hours % 24);
}
