import type { ErrorPlan } from './plan.js';

interface ErrorShape {
  errorType: string;
  message: string;
  headers: Record<string, string>;
}

const KNOWN: Record<number, ErrorShape> = {
  400: { errorType: 'invalid_request_error', message: 'Demo invalid request.', headers: {} },
  // x-should-retry:false makes Claude Code give up at once instead of retrying a bad key.
  401: {
    errorType: 'authentication_error',
    message: 'Demo authentication failure: invalid x-api-key.',
    headers: { 'x-should-retry': 'false' },
  },
  403: { errorType: 'permission_error', message: 'Demo permission error.', headers: {} },
  413: { errorType: 'request_too_large', message: 'Demo request too large.', headers: {} },
  429: {
    errorType: 'rate_limit_error',
    message: 'Demo rate limit reached.',
    headers: { 'retry-after': '1' },
  },
  500: { errorType: 'api_error', message: 'Demo internal server error.', headers: {} },
  529: { errorType: 'overloaded_error', message: 'Overloaded', headers: {} },
};

export function errorPlan(status: number, step: number): ErrorPlan {
  const code = Number.isInteger(status) && status >= 400 && status <= 599 ? status : 500;
  const shape = KNOWN[code] ?? {
    errorType: code < 500 ? 'invalid_request_error' : 'api_error',
    message: `Demo error ${code}.`,
    headers: {},
  };
  return { kind: 'error', script: 'error', step, status: code, ...shape };
}
