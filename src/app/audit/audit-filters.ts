import type { QueryChange, QueryParams } from '../core/routing/url';

/** What the audit page filters on, as the person chose it. */
export interface AuditFilters {
  session: string;
  tool: string;
  decision: '' | 'allow' | 'deny' | 'saved';
  kind: '' | 'decision' | 'rules_change' | 'access';
  period: AuditPeriod;
}

export type AuditPeriod = 'all' | '1h' | '24h' | '7d' | '30d';

export const AUDIT_PERIODS: readonly { value: AuditPeriod; label: string }[] = [
  { value: 'all', label: $localize`Any time` },
  { value: '1h', label: $localize`Last hour` },
  { value: '24h', label: $localize`Last 24 hours` },
  { value: '7d', label: $localize`Last 7 days` },
  { value: '30d', label: $localize`Last 30 days` },
];

const PERIOD_MS: Record<Exclude<AuditPeriod, 'all'>, number> = {
  '1h': 3_600_000,
  '24h': 86_400_000,
  '7d': 7 * 86_400_000,
  '30d': 30 * 86_400_000,
};

export const NO_AUDIT_FILTERS: AuditFilters = {
  session: '',
  tool: '',
  decision: '',
  kind: '',
  period: 'all',
};

/**
 * The query parameters of a filtered scope, fixed at `nowMs`: the table and the export use the
 * same parameters, so an export holds exactly the rows the filters select.
 */
export function auditScope(filters: AuditFilters, nowMs: number): Record<string, string> {
  const params: Record<string, string> = {};
  if (filters.session.trim()) params['session'] = filters.session.trim();
  if (filters.tool.trim()) params['tool'] = filters.tool.trim();
  if (filters.decision) params['decision'] = filters.decision;
  if (filters.kind) params['kind'] = filters.kind;
  if (filters.period !== 'all') {
    params['from'] = new Date(nowMs - PERIOD_MS[filters.period]).toISOString();
    params['to'] = new Date(nowMs).toISOString();
  }
  return params;
}

const DECISIONS: readonly AuditFilters['decision'][] = ['', 'allow', 'deny', 'saved'];
const KINDS: readonly AuditFilters['kind'][] = ['', 'decision', 'rules_change', 'access'];
const MAX_TEXT = 200;

function single(value: unknown): string {
  if (Array.isArray(value)) return single(value[0]);
  return typeof value === 'string' ? value.slice(0, MAX_TEXT) : '';
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  const text = single(value);
  return allowed.find((option) => option === text) ?? fallback;
}

/** Reads the filters from the URL query; anything unknown falls back to "no filter". */
export function auditFiltersFromParams(params: QueryParams | QueryChange): AuditFilters {
  return {
    session: single(params['session']).trim(),
    tool: single(params['tool']).trim(),
    decision: oneOf(params['decision'], DECISIONS, ''),
    kind: oneOf(params['kind'], KINDS, ''),
    period: oneOf(
      params['period'],
      AUDIT_PERIODS.map((p) => p.value),
      'all',
    ),
  };
}

/** The URL query of the filters: only what differs from "no filter", so a bare URL means none. */
export function auditFiltersToParams(filters: AuditFilters): QueryChange {
  return {
    session: filters.session.trim() || null,
    tool: filters.tool.trim() || null,
    decision: filters.decision || null,
    kind: filters.kind || null,
    period: filters.period === 'all' ? null : filters.period,
  };
}
