import { z } from 'zod';
import { HttpUrl } from './common.js';
import { LIMITS } from './limits.js';

/** The JSON types a property of an extraction schema may declare. */
export const JsonType = z.enum(['string', 'number', 'integer', 'boolean', 'array', 'object', 'null']);
export type JsonType = z.infer<typeof JsonType>;

/**
 * One property of an extraction schema: a JSON-Schema-style type description
 * such as `{ type: "string" }`. Keywords beyond the ones named here (`minimum`,
 * `pattern`, …) are kept and honoured by the server's JSON Schema validator.
 */
export interface SchemaProperty {
  type?: JsonType | JsonType[] | undefined;
  description?: string | undefined;
  enum?: unknown[] | undefined;
  format?: string | undefined;
  items?: SchemaProperty | undefined;
  properties?: Record<string, SchemaProperty> | undefined;
  required?: string[] | undefined;
  nullable?: boolean | undefined;
  [keyword: string]: unknown;
}

export const SchemaProperty: z.ZodType<SchemaProperty> = z
  .looseObject({
    // A misspelt type ("strin") read only "Invalid input": name the types the union takes.
    type: z
      .union([JsonType, z.array(JsonType).min(1)], {
        error: `type must be one of ${JsonType.options.map((t) => `"${t}"`).join(', ')}, or an array of them`,
      })
      .optional(),
    description: z.string().max(2000).optional(),
    enum: z.array(z.unknown()).min(1).optional(),
    format: z.string().max(64).optional(),
    get items() {
      return SchemaProperty.optional();
    },
    get properties() {
      return z.record(z.string().min(1).max(256), SchemaProperty).optional();
    },
    required: z.array(z.string()).optional(),
    nullable: z.boolean().optional(),
  })
  .meta({ id: 'SchemaProperty' });

/**
 * The `schema` of an extraction request: a JSON-Schema-style object with
 * `type: "object"`, `properties` and `required`. Limits: nesting depth
 * {@link LIMITS.maxSchemaDepth}, {@link LIMITS.maxSchemaBytes} bytes as JSON,
 * every `required` name declared in `properties`.
 *
 * @example
 * ```ts
 * ExtractionSchema.parse({
 *   type: 'object',
 *   properties: { name: { type: 'string' }, price: { type: 'number' } },
 *   required: ['name'],
 * });
 * ```
 */
export const ExtractionSchema = z
  .looseObject({
    type: z.literal('object', { error: 'the schema must have type "object"' }),
    properties: z.record(z.string().min(1).max(256), SchemaProperty),
    required: z.array(z.string()).optional(),
    description: z.string().max(2000).optional(),
  })
  .superRefine((schema, ctx) => {
    const bytes = Buffer.byteLength(JSON.stringify(schema), 'utf8');
    if (bytes > LIMITS.maxSchemaBytes) {
      ctx.addIssue({ code: 'custom', message: `schema is ${bytes} bytes; at most ${LIMITS.maxSchemaBytes}` });
    }
    checkSchemaNode(schema as SchemaProperty, [], 1, ctx);
  })
  .meta({ id: 'ExtractionSchema' });
export type ExtractionSchema = z.infer<typeof ExtractionSchema>;

function checkSchemaNode(
  node: SchemaProperty,
  path: (string | number)[],
  depth: number,
  ctx: z.core.$RefinementCtx,
): void {
  if (depth > LIMITS.maxSchemaDepth) {
    ctx.addIssue({
      code: 'custom',
      path,
      message: `schema is nested deeper than ${LIMITS.maxSchemaDepth} levels`,
    });
    return;
  }
  const properties = node.properties ?? {};
  const names = Object.keys(properties);
  if (names.length > LIMITS.maxSchemaProperties) {
    ctx.addIssue({
      code: 'custom',
      path: [...path, 'properties'],
      message: `an object may declare at most ${LIMITS.maxSchemaProperties} properties`,
    });
  }
  node.required?.forEach((name, index) => {
    // Own names only: `in` also finds inherited ones, so `required: ["toString"]` passed undeclared.
    if (!Object.hasOwn(properties, name)) {
      ctx.addIssue({
        code: 'custom',
        path: [...path, 'required', index],
        message: `required property "${name}" is not declared in properties`,
      });
    }
  });
  for (const name of names) {
    checkSchemaNode(properties[name] as SchemaProperty, [...path, 'properties', name], depth + 1, ctx);
  }
  if (node.items) checkSchemaNode(node.items, [...path, 'items'], depth + 1, ctx);
}

/** The URL list of a request: 1 to {@link LIMITS.maxUrlsPerRequest} absolute http(s) URLs. */
export const UrlList = z
  .array(HttpUrl)
  .min(1, 'at least one URL is required')
  .max(LIMITS.maxUrlsPerRequest, `at most ${LIMITS.maxUrlsPerRequest} URLs per request`);

const extractFields = {
  urls: UrlList,
  query: z.string().trim().min(1).max(LIMITS.maxQueryLength).optional(),
  schema: ExtractionSchema.optional(),
  screenshot: z.boolean().default(false),
};

function requireQueryOrSchema(
  body: { query?: string | undefined; schema?: unknown },
  ctx: z.core.$RefinementCtx,
) {
  if (body.query === undefined && body.schema === undefined) {
    ctx.addIssue({ code: 'custom', path: ['schema'], message: 'give a query, a schema or both' });
  }
}

/**
 * `POST /api/v1/extract`: `urls` (required), `query` and/or `schema`, optional `screenshot`.
 *
 * @example
 * ```ts
 * ExtractRequest.parse({
 *   urls: ['https://shop.example/item/1'],
 *   query: 'the product name and price',
 *   schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
 * });
 * ```
 */
export const ExtractRequest = z
  .strictObject(extractFields)
  .superRefine(requireQueryOrSchema)
  .meta({ id: 'ExtractRequest' });
export type ExtractRequest = z.input<typeof ExtractRequest>;
export type ExtractParams = z.output<typeof ExtractRequest>;

/** `POST /api/v1/runs` body for an extraction: the extract body with `type: "extract"`. */
export const ExtractRunRequest = z
  .strictObject({ type: z.literal('extract'), ...extractFields })
  .superRefine(requireQueryOrSchema);

const { urls: _extractUrls, ...extractParamFields } = extractFields;

/** What an extraction run keeps of its request (`Run.params`): the body less `type` and `urls`, defaults applied. */
export const ExtractRunParams = z.strictObject(extractParamFields);
export type ExtractRunParams = z.output<typeof ExtractRunParams>;
