/** What the audit page filters on, as the person chose it. */
export interface AuditFilters {
  session: string;
  tool: string;
  decision: '' | 'allow' | 'deny' | 'saved';
  kind: '' | 'decision' | 'rules_change';
  period: AuditPeriod;
}

export type AuditPeriod = 'all' | '1h' | '24h' | '7d' | '30d';

export const AUDIT_PERIODS: readonly { value: AuditPeriod; label: string }[] = [
  { value: 'all', label: 'Any time' },
  { value: '1h', label: 'Last hour' },
  { value: '24h', label: 'Last 24 hours' },
  { value: '7d', label: 'Last 7 days' },
  { value: '30d', label: 'Last 30 days' },
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
