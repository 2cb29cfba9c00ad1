import { logSummary } from './log-summary';

describe('log summary', () => {
  it('names the request, its status and time, or the error', () => {
    expect(logSummary({ req: { method: 'GET', url: '/api/logs?limit=2' } })).toBe(
      'GET /api/logs?limit=2',
    );
    expect(logSummary({ res: { statusCode: 200 }, responseTime: 1.14 })).toBe('status 200 · 1 ms');
    expect(logSummary({ err: { message: 'spawn ENOENT' } })).toBe('spawn ENOENT');
  });

  it('says nothing for lines without those fields', () => {
    expect(logSummary({ level: 30, msg: 'hello' })).toBe('');
    expect(logSummary({ req: 'not an object' })).toBe('');
  });
});
