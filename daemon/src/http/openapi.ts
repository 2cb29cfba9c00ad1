import { z } from 'zod';
import { ErrorBody } from '../../../contract/api.js';
import type { RouteSpec, RouteTable } from './route.js';

type JsonSchema = Record<string, unknown>;

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  delete json['$schema'];
  return json;
}

function parametersOf(schema: z.ZodType | undefined, where: 'path' | 'query'): JsonSchema[] {
  if (!schema) return [];
  const json = schemaOf(schema, 'input');
  const properties = (json['properties'] ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json['required'] as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    schema: property,
  }));
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad input',
  401: 'Missing, unknown, revoked or expired key',
  403: 'Refused host or origin, or a key without the scope this route needs',
  404: 'Not found',
  409: 'Conflict',
  413: 'Body too large',
  429: 'Too many requests',
};

/** The OpenAPI 3.1 document, built from the same route table the server registers. */
export function buildOpenApi(table: RouteTable, version: string): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const errorSchema = schemaOf(ErrorBody, 'output');
  for (const route of table.routes) {
    const path = route.url.replace(/:(\w+)/g, '{$1}');
    (paths[path] ??= {})[route.method.toLowerCase()] = operationOf(route, errorSchema);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Relais API',
      version,
      description: 'The public keyed API of the Relais daemon.',
    },
    servers: [{ url: '/' }],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    paths,
  };
}

function operationOf(route: RouteSpec, errorSchema: JsonSchema): JsonSchema {
  const operation: JsonSchema = {
    summary: route.summary,
    tags: [route.tag],
    parameters: [...parametersOf(route.params, 'path'), ...parametersOf(route.query, 'query')],
    responses: responsesOf(route, errorSchema),
    security: route.public === true ? [] : [{ bearer: [] }],
    // Who may call it: a caller key holding this scope, or only the owner's key.
    'x-relais-scope': route.public === true ? null : (route.scope ?? 'owner'),
  };
  if (route.body) {
    operation['requestBody'] = {
      required: true,
      content: { 'application/json': { schema: schemaOf(route.body, 'input') } },
    };
  }
  return operation;
}

/** Its answer on success (a body, a stream, or none) and every error status it may give. */
function responsesOf(route: RouteSpec, errorSchema: JsonSchema): Record<string, JsonSchema> {
  const status = String(route.status ?? 200);
  const responses: Record<string, JsonSchema> = {};
  if (route.stream) {
    responses[status] = {
      description: `A live stream of ${route.stream.contentType} lines`,
      content: { [route.stream.contentType]: { schema: schemaOf(route.stream.line, 'output') } },
    };
  } else {
    responses[status] = route.response
      ? {
          description: 'OK',
          content: { 'application/json': { schema: schemaOf(route.response, 'output') } },
        }
      : { description: 'No content' };
  }
  const errors = new Set([
    400,
    403,
    ...(route.public === true ? [] : [401]),
    ...(route.errors ?? []),
  ]);
  for (const code of errors) {
    responses[String(code)] = {
      description: STATUS_TEXT[code] ?? 'Error',
      content: { 'application/json': { schema: errorSchema } },
    };
  }
  return responses;
}
