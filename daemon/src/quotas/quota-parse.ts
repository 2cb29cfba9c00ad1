import type { QuotaReading } from '../agents/agent.js';

export type { QuotaReading };

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
