import {
  NO_LOG_FILTERS,
  isStaticAssetRequest,
  logFilterParams,
  logPageParams,
  logStreamUrl,
} from './log-filters';

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

describe('static-asset requests in the log view', () => {
  const line = (msg: string, url: unknown) => ({ msg, data: { req: { method: 'GET', url } } });

  it('are requests for the console files, not the API', () => {
    expect(isStaticAssetRequest(line('request completed', '/main-ABC.js'))).toBe(true);
    expect(isStaticAssetRequest(line('request completed', '/sessions/ses_1'))).toBe(true);
    expect(isStaticAssetRequest(line('request completed', '/api/sessions'))).toBe(false);
    expect(isStaticAssetRequest(line('session launched', '/main.js'))).toBe(false);
    expect(isStaticAssetRequest({ msg: 'request completed', data: {} })).toBe(false);
    expect(isStaticAssetRequest(line('request completed', 42))).toBe(false);
  });
});
