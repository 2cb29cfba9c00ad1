import { ErrorBody } from '../../../contract/api';
import { ApiError } from './api-client';
import { consoleErrorMessage, errorMessage } from './error-messages';

/** An API failure in the words the daemon used, never a generic "something went wrong". */
export interface ApiFailure {
  status: number;
  code: string;
  message: string;
  retryAfterSeconds: number | null;
}

export function toApiFailure(error: unknown): ApiFailure {
  if (error instanceof ApiError) return fromApiError(error);
  if (error instanceof Error)
    return { status: 0, code: 'client_error', message: error.message, retryAfterSeconds: null };
  return { status: 0, code: 'client_error', message: String(error), retryAfterSeconds: null };
}

function fromApiError(error: ApiError): ApiFailure {
  const body = ErrorBody.safeParse(error.body);
  const header = Number(error.retryAfter ?? undefined);
  const retry =
    body.success && body.data.retry_after_seconds !== undefined
      ? body.data.retry_after_seconds
      : Number.isFinite(header) && header > 0
        ? header
        : null;
  if (body.success)
    return {
      status: error.status,
      code: body.data.error_code,
      message: errorMessage(body.data.error_code, body.data.message),
      retryAfterSeconds: retry,
    };
  if (error.status === 0)
    return {
      status: 0,
      code: 'daemon_unreachable',
      message: consoleErrorMessage('daemon_unreachable'),
      retryAfterSeconds: null,
    };
  return {
    status: error.status,
    code: 'http_' + error.status,
    message: error.message,
    retryAfterSeconds: retry,
  };
}
