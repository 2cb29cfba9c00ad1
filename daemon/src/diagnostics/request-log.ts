import type { FastifyRequest } from 'fastify';
import { redactUrl } from './redact.js';

/**
 * The request as the log shows it: Fastify's usual fields, with the URL's query secrets and any
 * trace of the key replaced.
 */
export function requestForLog(
  apiKey: string,
): (request: FastifyRequest) => Record<string, unknown> {
  return (request) => ({
    method: request.method,
    url: redactUrl(request.url, apiKey),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  });
}
