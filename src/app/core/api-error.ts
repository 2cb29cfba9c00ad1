import { HttpErrorResponse } from '@angular/common/http';
import { ErrorBody } from '../../../contract/api';

/** An API failure in the words the daemon used, never a generic "something went wrong". */
export interface ApiFailure {
  status: number;
  code: string;
  message: string;
  retryAfterSeconds: number | null;
}

export function toApiFailure(error: unknown): ApiFailure {
  if (error instanceof HttpErrorResponse) {
    const body = ErrorBody.safeParse(error.error);
    const header = Number(error.headers?.get('Retry-After'));
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
        message: body.data.message,
        retryAfterSeconds: retry,
      };
    if (error.status === 0) {
      return {
        status: 0,
        code: 'daemon_unreachable',
        message: 'The daemon does not answer. Is Relais running?',
        retryAfterSeconds: null,
      };
    }
    return {
      status: error.status,
      code: 'http_' + error.status,
      message: error.message,
      retryAfterSeconds: retry,
    };
  }
  if (error instanceof Error)
    return { status: 0, code: 'client_error', message: error.message, retryAfterSeconds: null };
  return { status: 0, code: 'client_error', message: String(error), retryAfterSeconds: null };
}

/**
 * A download answered with an error carries its JSON body as a Blob: read it, so the failure
 * speaks with the daemon's own `error_code` and message like every other call.
 */
export async function withJsonErrorBody(error: unknown): Promise<unknown> {
  if (!(error instanceof HttpErrorResponse) || !(error.error instanceof Blob)) return error;
  try {
    const body: unknown = JSON.parse(await error.error.text());
    return new HttpErrorResponse({
      error: body,
      headers: error.headers,
      status: error.status,
      statusText: error.statusText,
      url: error.url ?? undefined,
    });
  } catch {
    // Not JSON (a proxy's page, say): the status alone tells the story.
    return error;
  }
}
