import type { QuotaReading } from '../agent.js';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null;
const finite = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v) ? v : null;

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
