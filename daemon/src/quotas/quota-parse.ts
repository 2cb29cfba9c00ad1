export interface QuotaReading {
  window: string;
  /** Percent 0–100 (may pass 100). */
  utilization: number;
  resets_at_ms: number | null;
  read_at_ms: number;
  source: 'usage_endpoint' | 'stream';
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null;
const finite = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v) ? v : null;

function isoMs(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

/**
 * The usage endpoint's answer (PROTOCOLS §4.1), parsed tolerantly: every top-level key holding
 * `{utilization, resets_at}` is a window (codename keys included); null windows are absent;
 * `extra_usage` counts only when enabled; `limits[]` rows become `<kind>` windows.
 */
export function parseUsageAnswer(body: unknown, readAtMs: number): QuotaReading[] {
  const root = obj(body);
  if (!root) return [];
  const readings: QuotaReading[] = [];
  for (const [key, value] of Object.entries(root)) {
    const window = obj(value);
    const utilization = finite(window?.['utilization']);
    if (!window || utilization === null) continue;
    if (key === 'extra_usage' && window['is_enabled'] !== true) continue;
    readings.push({
      window: key,
      utilization,
      resets_at_ms: isoMs(window['resets_at']),
      read_at_ms: readAtMs,
      source: 'usage_endpoint',
    });
  }
  for (const row of Array.isArray(root['limits']) ? (root['limits'] as unknown[]) : []) {
    const limit = obj(row);
    const percent = finite(limit?.['percent']);
    const kind = typeof limit?.['kind'] === 'string' ? limit['kind'] : null;
    if (percent === null || !kind || readings.some((r) => r.window === kind)) continue;
    readings.push({
      window: kind,
      utilization: percent,
      resets_at_ms: isoMs(limit!['resets_at']),
      read_at_ms: readAtMs,
      source: 'usage_endpoint',
    });
  }
  return readings;
}

/**
 * A `rate_limit_event` line (PROTOCOLS §4.3): utilization there is a FRACTION and resets are Unix
 * seconds. `unifiedWindows` gives every window; otherwise only the binding one is known.
 */
export function parseRateLimitEvent(line: Json, readAtMs: number): QuotaReading[] {
  const info = obj(line['rate_limit_info']);
  if (!info) return [];
  const toReading = (window: string, w: Json): QuotaReading | null => {
    const fraction = finite(w['utilization']);
    if (fraction === null) return null;
    const resets = finite(w['resetsAt']);
    return {
      window,
      utilization: fraction * 100,
      resets_at_ms: resets === null ? null : resets * 1000,
      read_at_ms: readAtMs,
      source: 'stream',
    };
  };
  const unified = obj(info['unifiedWindows']);
  if (unified) {
    return Object.entries(unified)
      .map(([window, w]) => (obj(w) ? toReading(window, obj(w)!) : null))
      .filter((r): r is QuotaReading => r !== null);
  }
  const type = typeof info['rateLimitType'] === 'string' ? info['rateLimitType'] : null;
  const reading = type ? toReading(type, info) : null;
  return reading ? [reading] : [];
}
