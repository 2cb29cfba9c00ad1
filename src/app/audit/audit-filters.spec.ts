import { NO_AUDIT_FILTERS, auditScope } from './audit-filters';

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
});
