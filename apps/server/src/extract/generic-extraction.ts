import { type Context, findCandidates } from './candidates.js';
import { coerceScalar } from './coerce.js';
import { CONFIDENCE_FLOOR } from './evidence.js';
import { nameTarget, tokenize } from './names.js';
import { type FactNode, type FactScalar, isNode, type PageFacts, valuesOf } from './page-facts.js';
import { statesItself } from './read-signatures.js';
import { fillObject } from './schema-filler.js';

/** The fields every schema-less answer tries to fill. */
const BASE_SCHEMA = {
  type: 'object',
  properties: {
    title: { type: 'string' },
    description: { type: 'string' },
    author: { type: 'string' },
    datePublished: { type: 'string', format: 'date-time' },
    image: { type: 'string', format: 'uri' },
    siteName: { type: 'string' },
  },
} as const;

/** Keys the structure reader adds itself; the rest of its string entries are the page's own "Label: value" facts. */
const READER_KEYS = new Set([
  'headline',
  'description',
  'image',
  'email',
  'telephone',
  'price',
  'author',
  'date',
]);
const MAX_FACTS = 40;
const MAX_MATCHES = 5;

/**
 * The answer to a query without a schema: `url`, `title`, `description`,
 * `author`, `datePublished`, `image`, `siteName` (each only when found),
 * `type` (schema.org type of the main item), `fields` (for each content word
 * of the query that names something on the page — "price", "salary" — its
 * value), `lists` (keyed by its heading, each definition list whose
 * heading's last word the query names, as its terms and texts, and the documented functions, classes or events
 * it names, by kind), `item` (the documented function or class the
 * query names, as its name, signature and description), `data` (the main structured item as plain JSON), `facts` (the
 * page's "Label: value" pairs, lists as arrays) and `matches` (up to five
 * sentences of the page with the most query words).
 */
export function extractGeneric(
  facts: PageFacts,
  contexts: Context[],
  query: string | undefined,
  item?: FactNode | undefined,
): Record<string, unknown> {
  const base = fillObject(BASE_SCHEMA, contexts, { facts });
  const out: Record<string, unknown> = { url: facts.url, ...(base.ok ? base.value : {}) };
  const first = contexts[0]?.node;
  const main = first && ['jsonld', 'microdata', 'rdfa'].includes(first.source) ? first : undefined;
  if (main?.types[0]) out.type = main.types[0];

  const words = [...new Set(query ? tokenize(query) : [])].filter((w) => w.length > 2);
  const fields: Record<string, string> = {};
  // The item the query names answers its words on its own first; the page's title and the like stay the page's.
  const itemContexts = item ? [{ node: item, weight: 1 }] : [];
  for (const word of words) {
    if (word in out) continue;
    const target = nameTarget(word);
    const own =
      item && statesItself(item, target)
        ? findCandidates(itemContexts, target).filter((c) => c.confidence >= CONFIDENCE_FLOOR)
        : [];
    for (const c of own.length > 0 ? own : findCandidates(contexts, target)) {
      if (c.confidence < CONFIDENCE_FLOOR) break;
      const value = coerceScalar(
        c.value,
        { type: 'string' },
        { pageUrl: facts.url, target, lang: facts.lang, code: c.evidence === 'code' },
      );
      if (typeof value === 'string' && value) {
        fields[word] = value;
        break;
      }
    }
  }
  if (Object.keys(fields).length > 0) out.fields = fields;
  const lists = { ...termLists(facts, words), ...itemLists(facts, words), ...memberLists(item, words) };
  if (Object.keys(lists).length > 0) out.lists = lists;
  if (item) out.item = nodeToJson(item, 0);
  if (main) out.data = nodeToJson(main, 0);

  // No prototype: a label is page text (see nodeToJson).
  const pairs: Record<string, string | string[]> = Object.create(null);
  for (const entry of facts.structure.entries) {
    if (READER_KEYS.has(entry.key) || isNode(entry.value)) continue;
    const value = String(entry.value);
    const existing = pairs[entry.key];
    if (existing === undefined) {
      if (Object.keys(pairs).length >= MAX_FACTS) continue;
      pairs[entry.key] = value;
    } else if (Array.isArray(existing)) existing.push(value);
    else pairs[entry.key] = [existing, value];
  }
  if (Object.keys(pairs).length > 0) out.facts = pairs;

  if (words.length > 0) {
    const sentences = facts.text.split(/\n|(?<=[.!?])\s+/).filter((s) => s.length >= 20 && s.length <= 400);
    const scored = sentences
      .map((s, index) => {
        const tokens = new Set(tokenize(s));
        return { s, index, hits: words.filter((w) => tokens.has(w)).length };
      })
      .filter((x) => x.hits > 0)
      .sort((a, b) => b.hits - a.hits || a.index - b.index)
      .slice(0, MAX_MATCHES);
    if (scored.length > 0) out.matches = scored.map((x) => x.s);
  }
  return out;
}

/**
 * The definition lists whose heading's last word the query names ("the
 * options" for "Command-Line Options"), keyed by their heading: each term
 * with its text. The first such list per word.
 */
function termLists(
  facts: PageFacts,
  words: string[],
): Record<string, { term: string; description: string }[]> {
  // A Map: a heading is page text, and `constructor` or `__proto__` must be keys like any other.
  const lists = new Map<string, { term: string; description: string }[]>();
  for (const word of words) {
    const list = facts.tables.find((t) => t.terms && tokenize(t.caption).at(-1) === word);
    if (!list || lists.has(list.caption)) continue;
    lists.set(
      list.caption,
      list.rows.map((row) => ({
        term: String(valuesOf(row, 'term')[0] ?? ''),
        description: String(valuesOf(row, 'description')[0] ?? ''),
      })),
    );
  }
  return Object.fromEntries(lists);
}

/** What a list of documented items of each kind is called (`read-signatures.ts`'s kinds). */
const ITEM_LISTS = new Map([
  ['function', 'functions'],
  ['class', 'classes'],
  ['event', 'events'],
  ['macro', 'macros'],
  ['constant', 'constants'],
  ['property', 'properties'],
]);

/**
 * The documented items of each kind the query names ("the functions", "which
 * events"), keyed by the kind's plural: each as its name, signature and
 * description. Without them a query for a reference page's functions
 * answered only sentences that mention the word.
 */
function itemLists(facts: PageFacts, words: string[]): Record<string, Record<string, unknown>[]> {
  const lists = new Map<string, Record<string, unknown>[]>();
  for (const word of words) {
    const key = ITEM_LISTS.get(word);
    if (!key || lists.has(key)) continue;
    const items = facts.structure.entries
      .filter((e) => e.key === word && e.evidence === 'signature' && isNode(e.value))
      .map((e) => nodeToJson(e.value as FactNode, 0));
    if (items.length > 0) lists.set(key, items);
  }
  return Object.fromEntries(lists);
}

/** What a list of a documented item's own parts is called: a class's methods, a function's parameters. */
const MEMBER_LISTS = new Map([
  ['method', 'methods'],
  ['event', 'events'],
  ['property', 'properties'],
  ['parameter', 'parameters'],
]);

/**
 * The parts of the item the query names that the query asks for ("the
 * methods of json.JSONDecoder", "fs.readFile's parameters"), keyed by their
 * plural; they stand for the page's items of that kind.
 */
function memberLists(item: FactNode | undefined, words: string[]): Record<string, Record<string, unknown>[]> {
  const lists = new Map<string, Record<string, unknown>[]>();
  for (const word of words) {
    const key = MEMBER_LISTS.get(word);
    if (!item || !key || lists.has(key)) continue;
    const parts = valuesOf(item, word).filter(isNode);
    if (parts.length > 0)
      lists.set(
        key,
        parts.map((p) => nodeToJson(p, 0)),
      );
  }
  return Object.fromEntries(lists);
}

/** A fact node as plain JSON: repeated keys become arrays, `@type` kept. */
export function nodeToJson(node: FactNode, depth: number): Record<string, unknown> {
  // No prototype: keys are page text, and one called `constructor` or `__proto__` is a key like any other
  // (on a plain object the first read the inherited function and became `[null, value]`, the second was lost).
  const out: Record<string, unknown> = Object.create(null);
  if (node.types.length > 0) out['@type'] = node.types.length === 1 ? node.types[0] : node.types;
  const convert = (v: FactScalar | FactNode): unknown =>
    isNode(v) ? (depth < 4 ? nodeToJson(v, depth + 1) : undefined) : v;
  for (const entry of node.entries) {
    const value = convert(entry.value);
    if (value === undefined) continue;
    const existing = out[entry.key];
    if (existing === undefined) out[entry.key] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else out[entry.key] = [existing, value];
  }
  return out;
}
