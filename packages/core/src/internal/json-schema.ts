import { z } from 'zod';

/** True for a zod schema (any zod 4 type), as opposed to a plain JSON Schema object. */
export function isZodSchema(value: unknown): value is z.ZodType {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

/**
 * The JSON Schema sent in an extraction request for a zod object schema:
 * draft 7 (what JSON-Schema-style servers commonly read), describing the
 * input side (what the server's data must look like), without `$schema`.
 */
export function toExtractionJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { target: 'draft-7', io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  const { $schema: _drop, ...rest } = json;
  return rest;
}
