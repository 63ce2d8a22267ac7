import type AjvModule from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type addFormatsModule from 'ajv-formats';
import { requiredOnFirstUse } from '../required-on-first-use.js';
import { type LinearRegExp, linearRegExp, PatternRefusedError } from './linear-regexp.js';

/**
 * `strict: false` lets schemas carry keywords Ajv does not know (descriptions,
 * `examples`, vendor keywords); `nullable: true` (OpenAPI style) is understood
 * by Ajv itself. Patterns run on RE2 (linear time), never on the backtracking
 * engine, and Ajv never matches a pattern at compile time.
 */
const OPTIONS = {
  strict: false,
  allErrors: true,
  logger: false,
  allowMatchingProperties: true,
  code: { regExp: linearRegExp },
} as const;

/**
 * Checks schemas against the JSON Schema meta-schema. It holds no request's
 * schema (validating a schema does not register it), so one is shared; the
 * compiling instances below skip this step, which is most of a fresh
 * instance's first compile.
 */
interface AjvKit {
  Ajv: typeof AjvModule;
  addFormats: typeof addFormatsModule;
  metaValidator: AjvModule;
}

let kit: AjvKit | undefined;

/**
 * Ajv, its formats and the meta-schema validator, loaded on the first schema
 * rather than at every server's start (~70 ms of CPU with re2js, which a
 * server serving no extraction schema never needed). Both are CommonJS
 * packages (their export is also on `.default`), required synchronously.
 */
function ajvKit(): AjvKit {
  if (kit) return kit;
  const Ajv = ajvPackage();
  const addFormats = ajvFormatsPackage();
  const metaValidator = new Ajv(OPTIONS);
  addFormats(metaValidator);
  kit = { Ajv, addFormats, metaValidator };
  return kit;
}

/** A CommonJS package's export, which is also on `.default`. */
function defaultExport<T>(exports: unknown): T {
  return ((exports as { default?: T }).default ?? exports) as T;
}
const ajvPackage = requiredOnFirstUse('ajv', defaultExport<typeof AjvModule>);
const ajvFormatsPackage = requiredOnFirstUse('ajv-formats', defaultExport<typeof addFormatsModule>);

/** Why a schema cannot be used: a message, and where in the schema (`["properties", "a", "pattern"]`). */
export interface SchemaProblem {
  message: string;
  path: (string | number)[];
}

/** A compiled schema, or why it was refused. */
export type CompiledSchema = { ok: true; validate: ValidateFunction } | { ok: false; problem: SchemaProblem };

/**
 * Compiles a request's schema with an Ajv instance of its own, so the
 * compiled code, and any `$id` it declares, belong to this schema alone:
 * dropping the result frees all of it, and a `$ref` can only reach the
 * schema's own parts (a reference to anything else, such as another owner's
 * `$id`, is refused as unresolvable). Nothing is fetched.
 */
export function compileSchema(schema: unknown): CompiledSchema {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    return { ok: false, problem: { message: 'the schema must be a JSON object', path: [] } };
  }
  const { Ajv, addFormats, metaValidator } = ajvKit();
  try {
    if (!metaValidator.validateSchema(schema)) {
      const errors = metaValidator.errors ?? [];
      return {
        ok: false,
        problem: {
          message: `schema is invalid: ${metaValidator.errorsText(errors)}`,
          path: pointerToPath(errors[0]?.instancePath ?? ''),
        },
      };
    }
    const ajv = new Ajv({ ...OPTIONS, validateSchema: false, code: { regExp: memoizedRegExp() } });
    addFormats(ajv);
    return { ok: true, validate: ajv.compile(schema) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const path = error instanceof PatternRefusedError ? (patternPath(schema, error.pattern) ?? []) : [];
    return { ok: false, problem: { message, path } };
  }
}

/**
 * {@link linearRegExp} compiling each distinct pattern once: Ajv asks for a
 * pattern at every place it occurs, and a schema often repeats one (a slug, a
 * date) across many properties. One per schema, so nothing outlives it.
 */
function memoizedRegExp() {
  const compiled = new Map<string, LinearRegExp>();
  const regExp = (pattern: string, flags: string): LinearRegExp => {
    const key = `${flags}/${pattern}`;
    let found = compiled.get(key);
    if (!found) {
      found = linearRegExp(pattern, flags);
      compiled.set(key, found);
    }
    return found;
  };
  regExp.code = linearRegExp.code;
  return regExp;
}

/** Names the first failing paths of a validation (`/offers/0/price must be number`). */
export function describeErrors(errors: ErrorObject[]): string {
  const parts = errors.slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
  return `output does not match the schema: ${parts.join('; ')}`;
}

function pointerToPath(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));
}

/** Where a refused pattern sits in the schema: a `pattern` value or a `patternProperties` key. */
function patternPath(
  node: unknown,
  pattern: string,
  path: (string | number)[] = [],
): (string | number)[] | null {
  if (typeof node !== 'object' || node === null) return null;
  const record = node as Record<string, unknown>;
  if (record.pattern === pattern) return [...path, 'pattern'];
  const patternProperties = record.patternProperties;
  if (typeof patternProperties === 'object' && patternProperties !== null && pattern in patternProperties) {
    return [...path, 'patternProperties', pattern];
  }
  for (const [key, child] of Object.entries(record)) {
    const found = patternPath(child, pattern, [...path, Array.isArray(node) ? Number(key) : key]);
    if (found) return found;
  }
  return null;
}
