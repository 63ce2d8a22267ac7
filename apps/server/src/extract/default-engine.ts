import { extractGeneric } from './generic-extraction.js';
import { orderContexts } from './main-entity.js';
import { readPageFacts } from './read-page.js';
import { fillObject } from './schema-filler.js';
import { InlineSchemaValidator, type SchemaValidator } from './schema-validator.js';
import type { ExtractionEngine, ExtractionInput, ExtractionOutcome } from './types.js';

/**
 * The deterministic extraction engine: no model, no network. Reads JSON-LD,
 * microdata, meta tags and the page's visible structure, matches the schema's
 * properties to what it found by name, synonym, description and query words,
 * coerces each value to its declared type, and checks the result against the
 * schema. A required property it cannot find fails the page; it never invents
 * a value. Without a schema it answers a generic object (see `extractGeneric`).
 * The schema check runs on `schemas` (the server gives it a thread of its own).
 */
export class DefaultExtractionEngine implements ExtractionEngine {
  constructor(private readonly schemas: SchemaValidator = new InlineSchemaValidator()) {}

  /** Extracts one page; see the class comment for the rules. */
  async extract(input: ExtractionInput): Promise<ExtractionOutcome> {
    if (input.signal?.aborted) return failure('cancelled', 'the extraction was cancelled');
    const facts = readPageFacts(input.html, input.url);
    const schema = input.schema;
    const words = input.query ? [input.query] : [];
    if (schema?.description) words.push(schema.description);
    const contexts = orderContexts(facts, Object.keys(schema?.properties ?? {}), words);
    if (!schema) return { ok: true, data: extractGeneric(facts, contexts, input.query), engine: 'default' };

    const filled = fillObject(schema, contexts, { facts });
    if (!filled.ok)
      return failure('extraction_failed', `required property "${filled.missing}" not found on the page`);
    const check = await this.schemas.checkOutput(input.owner ?? '', schema, filled.value);
    if (!check.valid) return failure('extraction_failed', check.message);
    return { ok: true, data: filled.value, engine: 'default' };
  }
}

function failure(code: string, message: string): ExtractionOutcome {
  return { ok: false, error: { code, message } };
}
