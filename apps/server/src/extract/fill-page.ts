import type { ExtractionSchema } from '@webdata/contract';
import type { ArticleMetadata } from '../readability.js';
import { extractGeneric } from './generic-extraction.js';
import { orderContexts } from './main-entity.js';
import { tokenize } from './names.js';
import { readPageFacts } from './read-page.js';
import { fillObject } from './schema-filler.js';

/** What the fill step reads: the page and the request (all plain data, so it can cross to a thread). */
export interface FillInput {
  url: string;
  html: string;
  schema?: ExtractionSchema | undefined;
  query?: string | undefined;
  article?: ArticleMetadata | null | undefined;
}

/**
 * The fill step's answer: the object (not yet checked against the schema
 * when there is one), or why a required property could not be filled.
 */
export type FillOutcome = { ok: true; data: Record<string, unknown> } | { ok: false; message: string };

/**
 * The CPU-heavy part of the default engine, synchronous and in one place
 * whether it runs inline or on an extraction thread (`ExtractionThreads`):
 * reads the page's facts, orders its contexts by the main entity, and fills
 * the schema's properties from them (or the generic object without a
 * schema).
 */
export function fillPage(input: FillInput): FillOutcome {
  const facts = readPageFacts(input.html, input.url, input.article);
  const schema = input.schema;
  const words = input.query ? [input.query] : [];
  if (schema?.description) words.push(schema.description);
  const contexts = orderContexts(facts, Object.keys(schema?.properties ?? {}), words);
  if (!schema) return { ok: true, data: extractGeneric(facts, contexts, input.query) };

  const queryTokens = new Set(input.query ? tokenize(input.query) : []);
  const filled = fillObject(schema, contexts, { facts, queryTokens });
  if (filled.ok) return { ok: true, data: filled.value };
  const why = filled.unfit
    ? `: the page states ${JSON.stringify(filled.unfit.stated)}, which is not ${filled.unfit.type}`
    : ' not found on the page';
  return { ok: false, message: `required property "${filled.missing}"${why}` };
}
