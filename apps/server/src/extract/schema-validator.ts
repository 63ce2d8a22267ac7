import type { ExtractionSchema } from '@webdata/contract';
import { OwnerCache, type OwnerCacheLimits, type Usage } from './owner-cache.js';
import { type CompiledSchema, compileSchema, describeErrors, type SchemaProblem } from './schema-compiler.js';

export type { SchemaProblem } from './schema-compiler.js';

/** The outcome of checking an extracted object against its schema. */
export type OutputCheck = { valid: true } | { valid: false; message: string };

/**
 * Compiles request schemas and checks extracted objects against them, with
 * compiled schemas cached per owner (an owner never uses or evicts another
 * owner's entries).
 */
export interface SchemaValidator {
  /** `null` when `schema` compiles, else why not (for a 400 naming the field). */
  checkSchema(owner: string, schema: unknown): Promise<SchemaProblem | null>;
  /** Whether `data` satisfies `schema`; the message names the first failing paths. */
  checkOutput(owner: string, schema: ExtractionSchema, data: unknown): Promise<OutputCheck>;
}

/**
 * Bounds of the compiled-schema cache. A compiled schema costs about as much
 * memory as a few times its JSON text (the weight), so 8 MB of text bounds the
 * cache to a few tens of MB; one owner holds at most an eighth of it.
 */
export const SCHEMA_CACHE_LIMITS: OwnerCacheLimits = {
  entriesPerOwner: 64,
  weightPerOwner: 1024 * 1024,
  entries: 1024,
  weight: 8 * 1024 * 1024,
};

/**
 * A {@link SchemaValidator} that compiles on the calling thread. The server
 * runs it on a thread of its own ({@link ThreadedSchemaValidator}); tests,
 * benchmarks and the quality harness use it directly.
 */
export class InlineSchemaValidator implements SchemaValidator {
  private readonly cache: OwnerCache<CompiledSchema>;

  constructor(limits: OwnerCacheLimits = SCHEMA_CACHE_LIMITS) {
    this.cache = new OwnerCache(limits);
  }

  async checkSchema(owner: string, schema: unknown): Promise<SchemaProblem | null> {
    return this.checkSchemaNow(owner, schema);
  }

  async checkOutput(owner: string, schema: ExtractionSchema, data: unknown): Promise<OutputCheck> {
    return this.checkOutputNow(owner, schema, data);
  }

  /** {@link checkSchema}, synchronously. */
  checkSchemaNow(owner: string, schema: unknown): SchemaProblem | null {
    const compiled = this.compiled(owner, schema);
    return compiled.ok ? null : compiled.problem;
  }

  /** {@link checkOutput}, synchronously. */
  checkOutputNow(owner: string, schema: ExtractionSchema, data: unknown): OutputCheck {
    const compiled = this.compiled(owner, schema);
    if (!compiled.ok) return { valid: false, message: compiled.problem.message };
    if (compiled.validate(data)) return { valid: true };
    return { valid: false, message: describeErrors(compiled.validate.errors ?? []) };
  }

  /** Entries and weight the cache holds, for one owner or all (tests). */
  held(owner?: string): Usage {
    return this.cache.held(owner);
  }

  private compiled(owner: string, schema: unknown): CompiledSchema {
    const key = JSON.stringify(schema) ?? 'undefined';
    const hit = this.cache.get(owner, key);
    if (hit) return hit;
    const compiled = compileSchema(schema);
    this.cache.set(owner, key, compiled, key.length);
    return compiled;
  }
}
