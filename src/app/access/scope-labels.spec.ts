import { KeyScope } from '../../../contract/keys';
import { SCOPES, keyStatus } from './scope-labels';

describe('access labels', () => {
  it('offers every scope a key may hold, each once', () => {
    expect([...SCOPES].sort()).toEqual([...KeyScope.options].sort());
  });

  it('tells a revoked key from an expired one and from one in use', () => {
    const now = Date.parse('2026-12-04T12:00:00Z');
    expect(keyStatus({ revoked_at: null, expires_at: null }, now)).toBe('active');
    expect(keyStatus({ revoked_at: null, expires_at: '2026-12-05T00:00:00Z' }, now)).toBe('active');
    expect(keyStatus({ revoked_at: null, expires_at: '2026-12-04T12:00:00Z' }, now)).toBe(
      'expired',
    );
    expect(
      keyStatus({ revoked_at: '2026-12-01T00:00:00Z', expires_at: '2026-12-01T00:00:00Z' }, now),
    ).toBe('revoked');
  });
});
