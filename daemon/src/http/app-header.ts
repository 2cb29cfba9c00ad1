import type { FastifyRequest } from 'fastify';
import { AppName } from '../../../contract/api.js';
import { apiError } from './errors.js';
import { describeIssues } from './route.js';

/**
 * The calling tool named by X-Relais-App (cut to 80 characters), under the same rule as every
 * name: a control, surrogate or text-direction character is refused, never stored.
 */
export function appFromHeader(request: FastifyRequest, fallback: string): string {
  const header = request.headers['x-relais-app'];
  if (typeof header !== 'string' || !header.trim()) return fallback;
  const parsed = AppName.safeParse(Array.from(header.trim()).slice(0, 80).join(''));
  if (!parsed.success)
    throw apiError('invalid_request', describeIssues(parsed.error, 'header X-Relais-App'));
  return parsed.data;
}
