import { z } from 'zod';

/** True for a zod schema (any zod 4 type), as opposed to a plain JSON Schema object. */
export function isZodSchema(value: unknown): value is z.ZodType {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

/** Marks, in the schema kept on this side only, where the caller's zod schema has a `z.date()`. */
const DATE_MARK = 'x-webdata-zod-date';

type JsonSchema = Record<string, unknown>;

/**
 * A caller's zod schema as an extraction request sends it, and how each
 * result's data is prepared before the schema parses it.
 *
 * The JSON Schema is draft 7 (what JSON-Schema-style servers commonly read),
 * describing the input side, without `$schema`. JSON has no dates: a
 * `z.date()` is sent as `{ type: "string", format: "date-time" }` (so the
 * server fills it with an RFC 3339 string), and `coerce` turns the strings
 * at exactly those places into `Date`s, so the caller's schema parses them.
 *
 * @example
 * ```ts
 * const { jsonSchema, coerce } = toExtractionJsonSchema(z.object({ published: z.date() }));
 * Product.parse(coerce({ published: '2026-11-22T10:15:30Z' })); // { published: Date }
 * ```
 */
export function toExtractionJsonSchema(schema: z.ZodType): {
  jsonSchema: JsonSchema;
  coerce: (data: unknown) => unknown;
} {
  let hasDates = false;
  const marked = z.toJSONSchema(schema, {
    target: 'draft-7',
    io: 'input',
    unrepresentable: 'any',
    override: (ctx) => {
      if (ctx.zodSchema._zod.def.type === 'date') {
        hasDates = true;
        ctx.jsonSchema.type = 'string';
        ctx.jsonSchema.format = 'date-time';
        (ctx.jsonSchema as JsonSchema)[DATE_MARK] = true;
      }
    },
  }) as JsonSchema;
  const { $schema: _drop, ...rest } = marked;
  return {
    jsonSchema: hasDates ? (withoutMarks(rest) as JsonSchema) : rest,
    coerce: hasDates ? (data) => coerceDates(data, rest, rest) : (data) => data,
  };
}

function withoutMarks(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutMarks);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== DATE_MARK)
      .map(([key, item]) => [key, withoutMarks(item)]),
  );
}

/** Replaces date-time strings with `Date`s where the marked schema had a `z.date()`. */
function coerceDates(data: unknown, schema: unknown, root: JsonSchema): unknown {
  if (schema === null || typeof schema !== 'object') return data;
  let node = schema as JsonSchema;
  if (typeof node.$ref === 'string') node = resolveRef(node.$ref, root) ?? node;
  if (node[DATE_MARK] === true && typeof data === 'string') {
    const date = new Date(data);
    return Number.isNaN(date.getTime()) ? data : date;
  }
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const options = node[key];
    if (!Array.isArray(options)) continue;
    for (const option of options) {
      const coerced = coerceDates(data, option, root);
      if (coerced !== data) return coerced;
    }
  }
  if (Array.isArray(data)) {
    const items = node.items;
    if (Array.isArray(items)) return data.map((item, i) => coerceDates(item, items[i], root));
    return items === undefined ? data : data.map((item) => coerceDates(item, items, root));
  }
  if (data !== null && typeof data === 'object') {
    const properties = (node.properties ?? {}) as Record<string, unknown>;
    const extra = node.additionalProperties;
    return Object.fromEntries(
      Object.entries(data).map(([key, value]) => [
        key,
        coerceDates(value, key in properties ? properties[key] : extra, root),
      ]),
    );
  }
  return data;
}

/** A local `$ref` (`#/definitions/…`) inside the schema. */
function resolveRef(ref: string, root: JsonSchema): JsonSchema | undefined {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const part of ref.slice(2).split('/')) {
    node = (node as Record<string, unknown> | undefined)?.[part.replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  return node && typeof node === 'object' ? (node as JsonSchema) : undefined;
}
