import { activeLocale } from '../core/locale-choice';

/**
 * The one place numbers, money and dates take the console's language (`fr-FR`: `1 234,5`,
 * `14:05:09`, `4 déc. 2026`). Exports (CSV, JSON) never come through here: they stay machine
 * formats. Formatters are made once per set of options (costly to build, cheap to use).
 */

let locale: string | undefined;

/**
 * The Intl locale: the browser's own variant of the console's language when it has one (an
 * `en-GB` browser keeps its day-month order and 24-hour clock), else `en-US` or `fr-FR`.
 */
export function intlLocale(): string {
  if (locale) return locale;
  const language = activeLocale();
  const browser = typeof navigator === 'undefined' ? [] : (navigator.languages ?? []);
  const variant = browser.find((tag) => tag.toLowerCase().split('-')[0] === language);
  locale = variant ?? (language === 'fr' ? 'fr-FR' : 'en-US');
  return locale;
}

const numberFormats = new Map<string, Intl.NumberFormat>();
/** By the options object itself: the time formats' options are constants, asked per row. */
const dateFormats = new Map<Intl.DateTimeFormatOptions, Intl.DateTimeFormat>();

function numberFormat(options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = JSON.stringify(options);
  let format = numberFormats.get(key);
  if (!format) numberFormats.set(key, (format = new Intl.NumberFormat(intlLocale(), options)));
  return format;
}

/** A date or time format of the console's language, made on first use. */
export function dateFormat(options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  let format = dateFormats.get(options);
  if (!format) dateFormats.set(options, (format = new Intl.DateTimeFormat(intlLocale(), options)));
  return format;
}

/**
 * A number with `digits` decimals (`min` of them kept when trailing zeros are dropped):
 * `1,234.5` / `1 234,5`; without grouping when `grouping` is false.
 */
export function formatNumber(
  value: number,
  digits = 0,
  { min = digits, grouping = true }: { min?: number; grouping?: boolean } = {},
): string {
  return numberFormat({
    minimumFractionDigits: min,
    maximumFractionDigits: digits,
    useGrouping: grouping,
  }).format(value);
}

/** US dollars with `digits` decimals: `$1.23` / `1,23 $`. */
export function formatUsd(value: number, digits: number): string {
  return numberFormat({
    style: 'currency',
    currency: 'USD',
    currencyDisplay: 'narrowSymbol',
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(value);
}

/** A ratio as a percentage with `digits` decimals: `25.0%` / `25,0 %`. */
export function formatPercent(ratio: number, digits = 1): string {
  return numberFormat({
    style: 'percent',
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(ratio);
}
