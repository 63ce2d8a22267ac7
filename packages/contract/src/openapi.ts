import { z } from 'zod';
import { ENDPOINTS, type Endpoint } from './endpoints.js';
import { ERROR_STATUS, ErrorBody, type ErrorCode } from './errors.js';
import { LIMITS } from './limits.js';

type JsonObject = Record<string, unknown>;

const componentUri = (id: string) => `#/components/schemas/${id}`;

/**
 * Converts one schema to JSON Schema 2020-12 (OpenAPI 3.1's dialect). Schemas
 * carrying an `id` in their metadata are moved into `components` and replaced
 * by a `$ref`.
 */
function toSchema(schema: z.ZodType, io: 'input' | 'output', components: JsonObject): JsonObject {
  const generated = z.toJSONSchema(schema, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'any',
    reused: 'inline',
    cycles: 'ref',
    metadata: z.globalRegistry,
  });
  const json = JSON.parse(
    JSON.stringify(generated).replaceAll('"#/$defs/', `"${componentUri('')}`),
  ) as JsonObject;
  const { $schema: _dialect, $defs, ...rest } = json;
  for (const [id, def] of Object.entries(($defs as JsonObject | undefined) ?? {})) {
    const { id: _id, ...body } = def as JsonObject;
    components[id] = body;
  }
  return rest;
}

function parameters(endpoint: Endpoint, components: JsonObject): JsonObject[] {
  const result: JsonObject[] = [];
  for (const [location, object] of [
    ['path', endpoint.pathParams],
    ['query', endpoint.query],
  ] as const) {
    for (const [name, field] of Object.entries(object?.shape ?? {})) {
      const schema = toSchema(field as z.ZodType, 'output', components);
      const optional = (field as z.ZodType).safeParse(undefined).success;
      const param: JsonObject = { name, in: location, required: location === 'path' || !optional, schema };
      if (schema.type === 'array') Object.assign(param, { style: 'form', explode: false });
      if (typeof schema.description === 'string') param.description = schema.description;
      result.push(param);
    }
  }
  if (endpoint.idempotent) {
    result.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'The same key with the same request (per owner, 24 h) returns the first run again instead of creating a second one; the key sent with another request (other type, URLs or fields) answers 400 `invalid_request` with a detail coded `idempotency_key_reused`.',
      schema: { type: 'string', minLength: 1, maxLength: LIMITS.maxIdempotencyKeyLength },
    });
  }
  return result;
}

function errorResponses(codes: readonly ErrorCode[]): JsonObject {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes)
    byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  const responses: JsonObject = {};
  for (const [status, group] of byStatus) {
    const retry = group.some((code) => code === 'rate_limited' || code === 'unavailable');
    responses[String(status)] = {
      description: `Error: ${group.map((code) => `\`${code}\``).join(', ')}.`,
      headers: retry ? { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } : undefined,
      content: { 'application/json': { schema: { $ref: componentUri('ErrorBody') } } },
    };
  }
  return responses;
}

function operation(endpoint: Endpoint, components: JsonObject): JsonObject {
  const success: JsonObject = { description: endpoint.success.description };
  if (endpoint.success.schema) {
    success.content = {
      'application/json': { schema: toSchema(endpoint.success.schema, 'output', components) },
    };
  } else if (endpoint.success.mediaType) {
    success.content = {
      [endpoint.success.mediaType]: {
        schema: { type: 'string', contentMediaType: endpoint.success.mediaType },
      },
    };
  }
  if (endpoint.success.status === 202) {
    success.headers = { Location: { description: 'Path of the created run.', schema: { type: 'string' } } };
  }
  const headers: JsonObject = {};
  if (endpoint.conditional) headers.ETag = { description: endpoint.conditional, schema: { type: 'string' } };
  for (const [name, description] of Object.entries(endpoint.headers ?? {})) {
    headers[name] = { description, schema: { type: 'string' } };
  }
  if (Object.keys(headers).length > 0) success.headers = { ...(success.headers as JsonObject), ...headers };
  const op: JsonObject = {
    operationId: endpoint.operationId,
    summary: endpoint.summary,
    tags: [endpoint.tag],
    parameters: parameters(endpoint, components),
    responses: { [String(endpoint.success.status)]: success, ...errorResponses(endpoint.errors) },
  };
  if (endpoint.conditional) {
    (op.responses as JsonObject)['304'] = {
      description: 'Not modified since the ETag sent in If-None-Match.',
    };
    (op.parameters as JsonObject[]).push({
      name: 'If-None-Match',
      in: 'header',
      required: false,
      description: 'An ETag of an earlier answer.',
      schema: { type: 'string' },
    });
  }
  if (!endpoint.authenticated) op.security = [];
  if (endpoint.body) {
    op.requestBody = {
      required: true,
      content: { 'application/json': { schema: toSchema(endpoint.body, 'input', components) } },
    };
  }
  return op;
}

/**
 * Builds the OpenAPI 3.1 document of the v1 API from the contract's schemas
 * and endpoint table. Nothing in it is written by hand.
 *
 * @example
 * ```ts
 * import { writeFileSync } from 'node:fs';
 * writeFileSync('openapi.json', JSON.stringify(buildOpenApiDocument(), null, 2));
 * ```
 */
export function buildOpenApiDocument(options: { serverUrl?: string } = {}): JsonObject {
  const components: JsonObject = {};
  toSchema(ErrorBody, 'output', components);
  const paths: JsonObject = {};
  for (const endpoint of ENDPOINTS) {
    paths[endpoint.path] = {
      ...(paths[endpoint.path] as JsonObject),
      [endpoint.method]: operation(endpoint, components),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'webdata Web Data Service',
      version: '1.0.0',
      description:
        'Search indexed content, extract schema-shaped fields from URLs, crawl and deep-crawl sites. Work that takes time runs as asynchronous runs: create, poll until terminal, read results.',
    },
    servers: [{ url: options.serverUrl ?? 'http://127.0.0.1:8787' }],
    security: [{ ApiKey: [] }],
    tags: ['Search', 'Runs', 'Results', 'Collections', 'Signed URLs'].map((name) => ({ name })),
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b))),
      securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } },
      headers: {
        RetryAfter: {
          description: 'Seconds to wait before trying again.',
          schema: { type: 'integer', minimum: 0 },
        },
      },
    },
  };
}
