import * as z from 'zod';
import { ApiError } from './api-client';
import { toApiFailure } from './api-error';

const refusal = (status: number, body: unknown, retryAfter: string | null = null) =>
  new ApiError(status, body, retryAfter, `The daemon answered ${status}.`);

describe('toApiFailure', () => {
  it('keeps the daemon error code and message', () => {
    expect(toApiFailure(refusal(409, { error_code: 'queue_full', message: 'Full.' }))).toEqual({
      status: 409,
      code: 'queue_full',
      message: 'Full.',
      retryAfterSeconds: null,
    });
  });

  it('reads the wait of a 429 from the body, else from Retry-After', () => {
    const body = refusal(429, {
      error_code: 'rate_limited',
      message: 'Slow down.',
      retry_after_seconds: 7,
    });
    expect(toApiFailure(body).retryAfterSeconds).toBe(7);
    const header = refusal(429, { error_code: 'rate_limited', message: 'Slow down.' }, '12');
    expect(toApiFailure(header).retryAfterSeconds).toBe(12);
    const odd = refusal(429, { error_code: 'rate_limited', message: 'Slow down.' }, 'soon');
    expect(toApiFailure(odd).retryAfterSeconds).toBeNull();
  });

  it('names an unreachable daemon', () => {
    expect(toApiFailure(refusal(0, null)).code).toBe('daemon_unreachable');
  });

  it('a body that is not the daemon’s is named by its status', () => {
    const failure = toApiFailure(refusal(502, '<html>bad gateway</html>'));
    expect(failure.code).toBe('http_502');
    expect(failure.message).toBe('The daemon answered 502.');
  });

  it('an answer that breaks the contract, or any other throw, is a client error', () => {
    const broken = z.object({ id: z.string() }).safeParse({ id: 1 });
    expect(toApiFailure(broken.error).code).toBe('client_error');
    expect(toApiFailure('boom')).toEqual({
      status: 0,
      code: 'client_error',
      message: 'boom',
      retryAfterSeconds: null,
    });
  });
});
