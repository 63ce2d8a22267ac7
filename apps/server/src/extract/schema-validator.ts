import type { ExtractionSchema } from '@webdata/contract';
import AjvModule, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

// ajv and ajv-formats are CommonJS packages whose default export sits on `.default` under ESM.
const Ajv = (AjvModule as unknown as { default: typeof AjvModule }).default ?? AjvModule;
const addFormats =
  (addFormatsModule as unknown as { default: typeof addFormatsModule }).default ?? addFormatsModule;

/**
 * One Ajv instance for the whole process. `strict: false` lets schemas carry
 * keywords Ajv does not know (descriptions, `examples`, vendor keywords);
 * `nullable: true` (OpenAPI style) is understood by Ajv itself.
 */
const ajv = new Ajv({ strict: false, allErrors: true, logger: false });
addFormats(ajv);

/** Compiled validators by the schema's JSON text: a request's schema is compiled once. */
const compiled = new Map<string, ValidateFunction>();
/** Bound on the cache so a stream of distinct schemas cannot grow memory without end. */
const MAX_CACHED_SCHEMAS = 500;

function compileCached(schema: object): ValidateFunction {
  const key = JSON.stringify(schema);
  const hit = compiled.get(key);
  if (hit) return hit;
  const validate = ajv.compile(schema);
  if (compiled.size >= MAX_CACHED_SCHEMAS) {
    const oldest = compiled.keys().next().value;
    if (oldest !== undefined) compiled.delete(oldest);
  }
  compiled.set(key, validate);
  return validate;
}

/**
 * Checks that `schema` is a JSON Schema Ajv can compile.
 *
 * @returns `null` when it compiles, otherwise a message naming the faulty
 * keyword (e.g. `schema is invalid: data/properties/a/minLength must be integer`)
 * that the HTTP layer can answer with a 400.
 */
export function validateExtractionSchema(schema: unknown): string | null {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    return 'the schema must be a JSON object';
  }
  try {
    compileCached(schema);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** The outcome of checking an extracted object against its schema. */
export type OutputCheck = { valid: true } | { valid: false; message: string };

/**
 * Checks an extracted object against the request's schema with the cached
 * validator. The message names the first failing path (`/offers/0/price must be number`).
 */
export function checkAgainstSchema(schema: ExtractionSchema, data: unknown): OutputCheck {
  let validate: ValidateFunction;
  try {
    validate = compileCached(schema);
  } catch (error) {
    return { valid: false, message: error instanceof Error ? error.message : String(error) };
  }
  if (validate(data)) return { valid: true };
  return { valid: false, message: describeErrors(validate.errors ?? []) };
}

function describeErrors(errors: ErrorObject[]): string {
  const parts = errors.slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
  return `output does not match the schema: ${parts.join('; ')}`;
}
