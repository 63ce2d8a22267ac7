import type { ExtractionSchema } from '@webdata/contract';
import type { ArticleMetadata } from '../readability.js';
import type { Context } from './candidates.js';
import { extractGeneric } from './generic-extraction.js';
import { orderContexts } from './main-entity.js';
import { nameTarget, tokenize } from './names.js';
import type { FactNode } from './page-facts.js';
import { readPageFacts } from './read-page.js';
import { itemNamedBy, statesItself } from './read-signatures.js';
import { type FillResult, type FillScope, fillObject } from './schema-filler.js';

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
  // A query about one documented item ("the signature of fs.readFile") is answered from that item first.
  const item = itemNamedBy(facts.structure, input.query);
  if (!schema) return { ok: true, data: extractGeneric(facts, contexts, input.query, item) };

  const queryTokens = new Set(input.query ? tokenize(input.query) : []);
  const filled = item
    ? fillFromItem(schema, item, contexts, { facts, queryTokens })
    : fillObject(schema, contexts, { facts, queryTokens });
  if (filled.ok) return { ok: true, data: filled.value };
  const why = filled.unfit
    ? `: the page states ${JSON.stringify(filled.unfit.stated)}, which is not ${filled.unfit.type}`
    : ' not found on the page';
  return { ok: false, message: `required property "${filled.missing}"${why}` };
}

/**
 * Fills a schema about one documented item: each property the item states
 * itself ({@link statesItself}: its name, signature, parameters,
 * description) from the item alone, the others from the whole page. Weighed together, the page's first paragraph (a pattern) and
 * another item's description outvoted the named item's own.
 */
function fillFromItem(
  schema: ExtractionSchema,
  item: FactNode,
  contexts: Context[],
  scope: FillScope,
): FillResult {
  const stated = Object.fromEntries(
    Object.entries(schema.properties ?? {}).filter(([name]) => statesItself(item, nameTarget(name))),
  );
  const own = fillObject({ ...schema, properties: stated, required: [] }, [{ node: item, weight: 1 }], scope);
  const found = own.ok ? Object.entries(own.value).filter(([, v]) => v !== null) : [];
  const rest = Object.fromEntries(
    Object.entries(schema.properties ?? {}).filter(([name]) => !found.some(([n]) => n === name)),
  );
  const others = fillObject(
    { ...schema, properties: rest, required: (schema.required ?? []).filter((n) => n in rest) },
    contexts,
    scope,
  );
  if (!others.ok) return others;
  const value: Record<string, unknown> = {};
  const byName = new Map([...found, ...Object.entries(others.value)]);
  for (const name of Object.keys(schema.properties ?? {}))
    if (byName.has(name)) value[name] = byName.get(name);
  return { ok: true, value };
}
