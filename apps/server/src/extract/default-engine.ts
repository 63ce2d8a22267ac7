import type { PageErrorCode } from '@webdata/contract';
import { extractGeneric } from './generic-extraction.js';
import { orderContexts } from './main-entity.js';
import { tokenize } from './names.js';
import { readPageFacts } from './read-page.js';
import { fillObject } from './schema-filler.js';
import { InlineSchemaValidator, type SchemaValidator } from './schema-validator.js';
import type { ExtractionEngine, ExtractionInput, ExtractionOutcome } from './types.js';

/**
 * The deterministic extraction engine: no model, no network. Reads the
 * page's evidence (JSON-LD, microdata, RDFa, meta tags, the document title,
 * Readability's reading, the visible structure), matches the schema's
 * properties to it by name, synonym, description and query words, and gives
 * each property the value its evidence supports best, coerced to the
 * declared type and checked for its meaning, when that evidence is strong
 * enough (`evidence.ts`). Otherwise a nullable property is null and a
 * required one fails the page with an error naming it: it never guesses.
 * Without a schema it answers a generic object (see `extractGeneric`).
 * The schema check runs on `schemas` (the server gives it a thread of its own).
 */
export class DefaultExtractionEngine implements ExtractionEngine {
  constructor(private readonly schemas: SchemaValidator = new InlineSchemaValidator()) {}

  /** Extracts one page; see the class comment for the rules. */
  async extract(input: ExtractionInput): Promise<ExtractionOutcome> {
    if (input.signal?.aborted) return failure('cancelled', 'the extraction was cancelled');
    const facts = readPageFacts(input.html, input.url, input.article);
    const schema = input.schema;
    const words = input.query ? [input.query] : [];
    if (schema?.description) words.push(schema.description);
    const contexts = orderContexts(facts, Object.keys(schema?.properties ?? {}), words);
    if (!schema) return { ok: true, data: extractGeneric(facts, contexts, input.query), engine: 'default' };

    const queryTokens = new Set(input.query ? tokenize(input.query) : []);
    const filled = fillObject(schema, contexts, { facts, queryTokens });
    if (!filled.ok) {
      const why = filled.unfit
        ? `: the page states ${JSON.stringify(filled.unfit.stated)}, which is not ${filled.unfit.type}`
        : ' not found on the page';
      return failure('extraction_failed', `required property "${filled.missing}"${why}`);
    }
    const check = await this.schemas.checkOutput(input.owner ?? '', schema, filled.value);
    if (!check.valid) return failure('extraction_failed', check.message);
    return { ok: true, data: filled.value, engine: 'default' };
  }
}

function failure(code: PageErrorCode, message: string): ExtractionOutcome {
  return { ok: false, error: { code, message } };
}
