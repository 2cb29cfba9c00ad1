import type { FastifyError, FastifyInstance } from 'fastify';
import { ApiError, ERRORS, apiError, type ErrorCode } from './errors.js';

/** Maps Fastify's own client errors onto the catalogue, so a client never sees a framework code. */
function fromFastify(error: FastifyError): ApiError | null {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return apiError('payload_too_large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return apiError('unsupported_media_type');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return apiError('invalid_json');
  }
  if (error instanceof SyntaxError || (error.statusCode === 400 && /JSON/i.test(error.message))) {
    return apiError('invalid_json');
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return new ApiError('invalid_request', 'The request could not be read.');
  }
  return null;
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const known = error instanceof ApiError ? error : fromFastify(error);
    if (known) {
      const retry = known.extra['retry_after_seconds'];
      if (typeof retry === 'number') reply.header('Retry-After', String(retry));
      return reply
        .code(known.status)
        .send({ error_code: known.code, message: known.message, ...known.extra });
    }
    request.log.error({ err: error }, 'unhandled error');
    const code: ErrorCode = 'internal_error';
    return reply.code(500).send({ error_code: code, message: ERRORS[code].message });
  });
}
