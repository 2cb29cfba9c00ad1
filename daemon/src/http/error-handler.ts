import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, ERRORS, apiError, type ErrorCode } from './errors.js';

/** Maps Fastify's own client errors onto the catalogue, so a client never sees a framework code. */
function fromFastify(error: FastifyError): ApiError | null {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return apiError('payload_too_large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return apiError('unsupported_media_type');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_ERR_CTP_INVALID_TYPE':
      return apiError('malformed_request');
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

function errorBody(code: ErrorCode, message?: string): string {
  return JSON.stringify({ error_code: code, message: message ?? ERRORS[code].message });
}

/**
 * Errors Fastify raises before routing (a path that does not decode, a path segment over the
 * router's limit), answered from the catalogue instead of Fastify's own body.
 */
export function frameworkErrors(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  const code: ErrorCode =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'uri_too_long' : 'malformed_request';
  const message =
    error.code === 'FST_ERR_BAD_URL' ? 'The path is not valid percent-encoding.' : undefined;
  void reply
    .code(ERRORS[code].status)
    .type('application/json; charset=utf-8')
    .send(errorBody(code, message));
}

const STATUS_LINE: Partial<Record<ErrorCode, string>> = {
  malformed_request: '400 Bad Request',
  request_timeout: '408 Request Timeout',
  headers_too_large: '431 Request Header Fields Too Large',
};

/**
 * Requests Node's HTTP parser could not read (framing, oversized headers, timeouts) never reach
 * Fastify; they are answered on the socket with the catalogue's body, then the socket is closed.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const code: ErrorCode =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? 'headers_too_large'
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 'request_timeout'
        : 'malformed_request';
  const body = errorBody(code);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${STATUS_LINE[code]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
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
