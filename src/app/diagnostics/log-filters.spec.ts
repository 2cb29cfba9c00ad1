import { NO_LOG_FILTERS, logFilterParams, logPageParams, logStreamUrl } from './log-filters';

describe('log filters', () => {
  it('sends nothing but the page size without filters', () => {
    expect(logFilterParams(NO_LOG_FILTERS)).toEqual({});
    expect(logPageParams(NO_LOG_FILTERS, null, 100)).toEqual({ limit: '100' });
    expect(logStreamUrl(NO_LOG_FILTERS)).toBe('/api/logs/stream');
  });

  it('sends the chosen level, session and text, trimmed, and the cursor for older lines', () => {
    const filters = { level: 'warn' as const, session: ' ses_1 ', q: ' spawn failed ' };
    expect(logPageParams(filters, '42', 50)).toEqual({
      level: 'warn',
      session: 'ses_1',
      q: 'spawn failed',
      limit: '50',
      before: '42',
    });
  });

  it('encodes the live tail filters in its URL', () => {
    expect(logStreamUrl({ level: 'error', session: '', q: 'a&b c' })).toBe(
      '/api/logs/stream?level=error&q=a%26b+c',
    );
  });
});
