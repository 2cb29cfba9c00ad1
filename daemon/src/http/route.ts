import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { RouteScope } from '../../../contract/keys.js';
import { apiError } from './errors.js';
import type { RouteAccess } from './guards.js';

export interface RouteInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** A route described once: the same zod schemas validate requests and produce the OpenAPI document. */
export interface RouteSpec<P = unknown, Q = unknown, B = unknown> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  summary: string;
  tag: string;
  /** True for the few routes that answer without the key (health); every other route requires it. */
  public?: boolean;
  /**
   * The scope a caller key needs here (see contract/keys.ts). None: the owner's key alone, so a
   * route added without thinking about callers is closed to them.
   */
  scope?: RouteScope;
  params?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  /** Schema of a JSON answer; a streaming route gives `stream` instead. */
  response?: z.ZodType;
  stream?: { contentType: string; line: z.ZodType };
  status?: number;
  /** Extra statuses this route answers deliberately, for the OpenAPI document. */
  errors?: number[];
  handler(input: RouteInput<P, Q, B>): unknown;
}

/**
 * Runs after a request is parsed, before its handler: confines a caller key to what it may touch
 * (its own sessions, its subscriptions). Returns the query the handler gets.
 */
export type Confine = (spec: RouteSpec, input: RouteInput<unknown, unknown, unknown>) => unknown;

export class RouteTable {
  readonly routes: RouteSpec[] = [];

  add<P, Q, B>(spec: RouteSpec<P, Q, B>): void {
    this.routes.push(spec as RouteSpec);
  }

  register(app: FastifyInstance, confine: Confine = (_spec, input) => input.query): void {
    for (const spec of this.routes) {
      app.route({
        method: spec.method,
        url: spec.url,
        config: { public: spec.public === true, scope: spec.scope } satisfies RouteAccess,
        handler: async (request, reply) => {
          const params = parse(spec.params, request.params, 'path');
          const query = parse(spec.query, request.query, 'query');
          const body = parse(spec.body, request.body ?? (spec.body ? {} : undefined), 'body');
          const confined = confine(spec, { params, query, body, request, reply });
          const result = await spec.handler({ params, query: confined, body, request, reply });
          if (reply.sent) return reply;
          reply.code(spec.status ?? 200);
          if (result === undefined) return reply.send();
          if (typeof result === 'string')
            return reply.type('application/json; charset=utf-8').send(result);
          return reply.send(result);
        },
      });
    }
  }
}

function parse<T>(schema: z.ZodType<T> | undefined, value: unknown, where: string): T {
  if (!schema) return undefined as T;
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  throw apiError('invalid_request', describeIssues(result.error, where));
}

export function describeIssues(error: z.ZodError, where: string): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      const path = issue.path.length ? issue.path.join('.') : '(root)';
      return `${where} ${path}: ${issue.message}`;
    })
    .join('; ');
}

export const IdParams = z.object({ id: z.string().min(1).max(200) }).strict();
export type IdParams = z.infer<typeof IdParams>;
