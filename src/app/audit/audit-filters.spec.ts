import {
  NO_AUDIT_FILTERS,
  auditFiltersFromParams,
  auditFiltersToParams,
  auditScope,
} from './audit-filters';

describe('audit scope', () => {
  const now = Date.parse('2026-11-30T12:00:00.000Z');

  it('sends nothing for no filters', () => {
    expect(auditScope(NO_AUDIT_FILTERS, now)).toEqual({});
  });

  it('sends each chosen filter, trimmed, and a fixed period', () => {
    expect(
      auditScope(
        { session: ' ses_1 ', tool: 'Bash', decision: 'deny', kind: 'decision', period: '24h' },
        now,
      ),
    ).toEqual({
      session: 'ses_1',
      tool: 'Bash',
      decision: 'deny',
      kind: 'decision',
      from: '2026-11-29T12:00:00.000Z',
      to: '2026-11-30T12:00:00.000Z',
    });
  });

  it('round-trips the filters through the URL, leaving out what is not filtered', () => {
    const filters = {
      session: 'ses_1',
      tool: 'Bash',
      decision: 'deny' as const,
      kind: 'decision' as const,
      period: '7d' as const,
    };
    const params = auditFiltersToParams(filters);
    expect(auditFiltersFromParams(params)).toEqual(filters);
    expect(auditFiltersToParams(NO_AUDIT_FILTERS)).toEqual({
      session: null,
      tool: null,
      decision: null,
      kind: null,
      period: null,
    });
  });

  it('reads an unknown or malformed URL value as no filter', () => {
    expect(
      auditFiltersFromParams({
        decision: 'maybe',
        kind: ['rules_change', 'decision'],
        period: '1y',
        tool: 'x'.repeat(1000),
      }),
    ).toEqual({ ...NO_AUDIT_FILTERS, kind: 'rules_change', tool: 'x'.repeat(200) });
  });
});
