const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'] as const;

/** A byte count for people: `0 B`, `812 B`, `4.0 KiB`, `12.3 MiB` (binary units, one decimal). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 B';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${Math.round(value)} B` : `${value.toFixed(1)} ${UNITS[unit]}`;
}

/** An exact byte count with thousands separators, for tables: `1,234,567`. */
export function exactBytes(bytes: number): string {
  return Math.round(bytes).toLocaleString('en-US');
}

/** A part of a whole as a percentage with one decimal; 0 when the whole is empty. */
export function percentOf(part: number, whole: number): string {
  if (whole <= 0) return '0.0%';
  return `${((part / whole) * 100).toFixed(1)}%`;
}
