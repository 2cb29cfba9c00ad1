import { HttpErrorResponse, HttpHeaders } from '@angular/common/http';
import { toApiFailure, withJsonErrorBody } from './api-error';

describe('toApiFailure', () => {
  it('keeps the daemon error code and message', () => {
    const error = new HttpErrorResponse({
      status: 409,
      error: { error_code: 'queue_full', message: 'Full.' },
    });
    expect(toApiFailure(error)).toEqual({
      status: 409,
      code: 'queue_full',
      message: 'Full.',
      retryAfterSeconds: null,
    });
  });

  it('reads the wait of a 429 from the body, else from Retry-After', () => {
    const body = new HttpErrorResponse({
      status: 429,
      error: { error_code: 'rate_limited', message: 'Slow down.', retry_after_seconds: 7 },
    });
    expect(toApiFailure(body).retryAfterSeconds).toBe(7);
    const header = new HttpErrorResponse({
      status: 429,
      error: { error_code: 'rate_limited', message: 'Slow down.' },
      headers: new HttpHeaders({ 'Retry-After': '12' }),
    });
    expect(toApiFailure(header).retryAfterSeconds).toBe(12);
  });

  it('names an unreachable daemon', () => {
    expect(toApiFailure(new HttpErrorResponse({ status: 0 })).code).toBe('daemon_unreachable');
  });
});

describe('withJsonErrorBody', () => {
  it('reads the JSON error body of a download, so the daemon speaks with its own words', async () => {
    const raw = new HttpErrorResponse({
      status: 400,
      error: new Blob([
        JSON.stringify({ error_code: 'invalid_request', message: 'from must be earlier than to' }),
      ]),
    });
    const failure = toApiFailure(await withJsonErrorBody(raw));
    expect(failure.code).toBe('invalid_request');
    expect(failure.message).toBe('from must be earlier than to');
  });

  it('leaves other errors as they are', async () => {
    const raw = new HttpErrorResponse({
      status: 502,
      error: new Blob(['<html>bad gateway</html>']),
    });
    expect(toApiFailure(await withJsonErrorBody(raw)).code).toBe('http_502');
  });
});
