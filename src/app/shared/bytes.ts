import { formatNumber, formatPercent } from './locale-format';

const UNITS = [
  $localize`:byte unit|A byte count unit:B`,
  $localize`:byte unit|A byte count unit:KiB`,
  $localize`:byte unit|A byte count unit:MiB`,
  $localize`:byte unit|A byte count unit:GiB`,
  $localize`:byte unit|A byte count unit:TiB`,
];

/** A byte count for people: `0 B`, `812 B`, `4.0 KiB`, `12.3 MiB` (binary units, one decimal; `4,0 Kio` in French). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return `0 ${UNITS[0]}`;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const figure =
    unit === 0
      ? formatNumber(Math.round(value), 0, { grouping: false })
      : formatNumber(value, 1, { grouping: false });
  return `${figure} ${UNITS[unit]}`;
}

/** An exact byte count with thousands separators, for tables: `1,234,567` (`1 234 567`). */
export function exactBytes(bytes: number): string {
  return formatNumber(Math.round(bytes));
}

/** A part of a whole as a percentage with one decimal; 0 when the whole is empty. */
export function percentOf(part: number, whole: number): string {
  return formatPercent(whole <= 0 ? 0 : part / whole);
}
