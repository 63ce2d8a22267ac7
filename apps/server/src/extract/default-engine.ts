import type { PageErrorCode } from '@webdata/contract';
import { inlineFiller, type PageFiller } from './extraction-threads.js';
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
 * The reading and filling (`fillPage`) run on `filler` and the schema check
 * on `schemas`; the server gives each threads of their own, so neither holds
 * the event loop.
 */
export class DefaultExtractionEngine implements ExtractionEngine {
  constructor(
    private readonly schemas: SchemaValidator = new InlineSchemaValidator(),
    private readonly filler: PageFiller = inlineFiller,
  ) {}

  /** Extracts one page; see the class comment for the rules. */
  async extract(input: ExtractionInput): Promise<ExtractionOutcome> {
    if (input.signal?.aborted) return cancelled();
    const filled = await this.filler.fill(input);
    if (input.signal?.aborted) return cancelled();
    if (!filled.ok) return failure('extraction_failed', filled.message);
    if (input.schema) {
      const check = await this.schemas.checkOutput(input.owner ?? '', input.schema, filled.data);
      if (!check.valid) return failure('extraction_failed', check.message);
    }
    return { ok: true, data: filled.data, engine: 'default' };
  }
}

function cancelled(): ExtractionOutcome {
  return failure('cancelled', 'the extraction was cancelled');
}

function failure(code: PageErrorCode, message: string): ExtractionOutcome {
  return { ok: false, error: { code, message } };
}
