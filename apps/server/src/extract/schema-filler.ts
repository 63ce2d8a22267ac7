import type { SchemaProperty } from '@webdata/contract';
import { type Candidate, type Context, findCandidates, siblingsOf } from './candidates.js';
import { allowsNull, type CoerceContext, coerceScalar, declaredTypes, nodeText } from './coerce.js';
import {
  CONFIDENCE_FLOOR,
  combineConfidence,
  EVIDENCE_STRENGTH,
  type EvidenceKind,
  SILENCE_FLOOR,
} from './evidence.js';
import { MATCH_THRESHOLD, matchScore, type NameTarget, nameTarget, tokenize } from './names.js';
import { type FactNode, type FactScalar, isNode, newNode, type PageFacts, valuesOf } from './page-facts.js';
import { detectCurrency, parseNumber, parseRange } from './parse-number.js';
import { comparisonForm, fitMeaning, meaningOf, type TextMeaning } from './value-meaning.js';

/**
 * An object filled from the page, or why not: the path of the first
 * required property without an answer, and what the page stated for it
 * when that did not fit its type.
 */
export type FillResult =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; missing: string; unfit?: { stated: string; type: string } | undefined };

/** Page-wide inputs of a fill. */
export interface FillScope {
  facts: PageFacts;
  /** The content words of the request's query (`names.ts` tokens): labels the user named. */
  queryTokens?: ReadonlySet<string> | undefined;
}

/** How well a key the query itself names ("…the SQLITE_SOURCE_ID…") is taken to name a property it matches at all. */
const QUERY_NAMED_MATCH = 0.9;

/**
 * A key of two or more words, every one of them in the query, names what
 * the user asked for: when it matches the property at all (its words cover
 * the property's, as `SQLITE_SOURCE_ID` covers `sourceId`), it is taken as
 * a good name for it rather than a partial one.
 */
function namedByQuery(candidates: Candidate[], target: NameTarget, scope: FillScope): Candidate[] {
  const query = scope.queryTokens;
  if (!query || query.size === 0) return candidates;
  let changed = false;
  const out = candidates.map((c) => {
    if (c.match >= QUERY_NAMED_MATCH) return c;
    const words = tokenize(c.key);
    if (words.length < 2 || !words.every((w) => query.has(w))) return c;
    if (!target.tokens.every((t) => words.includes(t))) return c;
    changed = true;
    return { ...c, match: QUERY_NAMED_MATCH, confidence: (c.confidence * QUERY_NAMED_MATCH) / c.match };
  });
  return changed ? out.sort((a, b) => b.confidence - a.confidence) : candidates;
}

/** How one property came out: a value, or none (with what the page stated, when that did not fit the type). */
type PropertyFill = { found: true; value: unknown } | { found: false; unfit?: string | undefined };

/** Findings below this confidence are not even weighed (they could only add noise). */
const NEGLIGIBLE = 0.15;
/** A key that names a property at least this well makes keys under {@link LOOSELY_NAMED} irrelevant to it. */
const WELL_NAMED = 0.8;
const LOOSELY_NAMED = 0.7;

/** Properties of a nested object that name it too generally to be looked up outside it. */
const GENERIC_CHILD = new Set([
  'name',
  'description',
  'url',
  'image',
  'title',
  'text',
  'value',
  'id',
  'type',
]);

/**
 * Inside an item already chosen for a property (an `offers` node, a table
 * row), a key's name match alone decides: the item's own evidence was
 * weighed when it was chosen.
 */
function itemContext(node: FactNode): Context {
  return { node, weight: 1 / EVIDENCE_STRENGTH[node.evidence] };
}

/**
 * Fills an object schema from the given contexts. Each property takes the
 * value with the most confident evidence (`evidence.ts`) that fits its type
 * and meaning; below the confidence floor there is no value: `null` when the
 * schema allows null, otherwise the property is left out, and a required
 * one fails the object.
 */
export function fillObject(
  schema: SchemaProperty,
  contexts: Context[],
  scope: FillScope,
  path: string[] = [],
): FillResult {
  const out: Record<string, unknown> = {};
  const unfit = new Map<string, string>();
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    const fill = fillProperty(name, prop, contexts, scope, [...path, name]);
    if (fill.found) out[name] = fill.value;
    else if (allowsNull(prop)) out[name] = null;
    else if (fill.unfit !== undefined) unfit.set(name, fill.unfit);
  }
  for (const name of schema.required ?? []) {
    if (name in out) continue;
    const stated = unfit.get(name);
    const prop = schema.properties?.[name];
    return {
      ok: false,
      missing: [...path, name].join('.'),
      unfit: stated !== undefined && prop ? { stated, type: typeName(prop) } : undefined,
    };
  }
  return { ok: true, value: out };
}

/** "an integer", "a date-time", "one of a, b": what a property's type asks for, for error messages. */
function typeName(prop: SchemaProperty): string {
  if (prop.enum) return `one of ${prop.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  if (prop.format) return `a ${prop.format}`;
  const type = declaredTypes(prop)[0] ?? 'string';
  return type === 'integer' || type === 'array' || type === 'object' ? `an ${type}` : `a ${type}`;
}

function fillProperty(
  name: string,
  prop: SchemaProperty,
  contexts: Context[],
  scope: FillScope,
  path: string[],
): PropertyFill {
  const target = nameTarget(name, prop.description);
  let unfit: string | undefined;
  for (const type of prop.enum ? ['scalar'] : declaredTypes(prop)) {
    let fill: PropertyFill;
    if (type === 'object') fill = fillNested(name, prop, target, contexts, scope, path);
    else if (type === 'array') fill = fillArray(prop, target, contexts, scope, path);
    else fill = chooseScalar(prop, target, contexts, scope);
    if (fill.found) return fill;
    unfit ??= fill.unfit;
  }
  return { found: false, unfit };
}

/** One value with every finding that supports it. */
interface ValueGroup {
  value: unknown;
  /** The text the page stated, when it does not fit the property's type. */
  unfit?: string | undefined;
  /** The strongest finding per independent source. */
  bySource: Map<string, number>;
  /** The strongest single finding: its value represents the group. */
  top: number;
}

/**
 * Concepts Readability looks for everywhere a page states them (an author:
 * structured data, meta tags and byline markup; a site's name): its silence
 * on them counts (see {@link SILENCE_FLOOR}). Not dates: it reads those from
 * structured data and meta tags only.
 */
const READABILITY_CONCEPTS = ['author', 'siteName'];

/**
 * The confidence a value of this property needs: the floor, or the silence
 * floor when Readability read the page, reads this kind of property, and
 * found none.
 */
function floorFor(target: NameTarget, contexts: Context[], facts: PageFacts): number {
  const reading = facts.readability;
  if (!reading || !READABILITY_CONCEPTS.some((c) => target.concepts.has(c))) return CONFIDENCE_FLOOR;
  const inContexts = contexts.some((c) => c.node === reading);
  if (!inContexts) return CONFIDENCE_FLOOR;
  const found = findCandidates([{ node: reading, weight: 1 }], target, 0).some((c) => c.match >= 0.85);
  return found ? CONFIDENCE_FLOOR : SILENCE_FLOOR;
}

function textOf(value: FactScalar | FactNode): string {
  return isNode(value) ? (nodeText(value) ?? '') : String(value);
}

/**
 * The property's value: every finding is coerced to the type and checked
 * for its meaning; findings of the same value (compared ignoring case,
 * spacing and a leading "By") support each other; the best supported value
 * wins if its combined confidence reaches the floor. When the best supported
 * finding is a value that does not fit the type ("$19.99" for an integer),
 * there is no value: it is never bent to fit, nor replaced by a weaker one.
 */
function chooseScalar(
  prop: SchemaProperty,
  target: NameTarget,
  contexts: Context[],
  scope: FillScope,
): PropertyFill {
  const ctx: CoerceContext = { pageUrl: scope.facts.url, target, lang: scope.facts.lang };
  const meaning: TextMeaning = prop.enum ? 'text' : meaningOf(target);
  const candidates = namedByQuery(findCandidates(contexts, target), target, scope);
  const groups = new Map<string, ValueGroup>();
  const support = (form: string, value: unknown, c: Candidate, unfit?: string) => {
    const group = groups.get(form) ?? { value, unfit, bySource: new Map(), top: 0 };
    group.bySource.set(c.source, Math.max(group.bySource.get(c.source) ?? 0, c.confidence));
    if (c.confidence > group.top) {
      group.top = c.confidence;
      group.value = value;
    }
    groups.set(form, group);
  };
  // Where a key names the property well, loosely named ones name something else ("lowPrice" beside
  // "highPrice" for highestPrice): they neither answer nor support.
  const wellNamed = candidates.some((c) => c.match >= WELL_NAMED);
  for (const c of candidates) {
    if (c.confidence < NEGLIGIBLE) break;
    if (wellNamed && c.match < LOOSELY_NAMED) continue;
    const code = c.evidence === 'code';
    let value = coerceScalar(c.value, prop, code ? { ...ctx, code } : ctx);
    if (value === undefined || value === '') {
      const stated = textOf(c.value).replace(/\s+/g, ' ').trim();
      if (stated) support(`unfit:${stated.toLowerCase()}`, undefined, c, stated);
      continue;
    }
    // Code keeps its lines where a property is plain text (a synopsis); a headline or a name is one line.
    if (typeof value === 'string' && !prop.format && !prop.enum && !(code && meaning === 'text')) {
      value = fitMeaning(value, meaning);
      if (value === undefined) continue; // not what the property means (a URL for an author): no support
    }
    support(comparisonForm(value, meaning), value, c);
  }
  const best = bestGroup(groups);
  if (best && best.confidence >= floorFor(target, contexts, scope.facts)) {
    return best.group.unfit !== undefined
      ? { found: false, unfit: best.group.unfit }
      : { found: true, value: best.group.value };
  }
  // A currency is often only written as the sign of a price.
  if (target.concepts.has('currency')) {
    for (const c of findCandidates(contexts, nameTarget('price'))) {
      if (c.confidence < CONFIDENCE_FLOOR) break;
      const code = typeof c.value === 'string' ? detectCurrency(c.value) : undefined;
      if (code) {
        const value = coerceScalar(code, prop, ctx);
        if (value !== undefined) return { found: true, value };
      }
    }
  }
  return { found: false };
}

function bestGroup(groups: Map<string, ValueGroup>): { group: ValueGroup; confidence: number } | undefined {
  let best: { group: ValueGroup; confidence: number } | undefined;
  for (const group of groups.values()) {
    const confidence = combineConfidence([...group.bySource.values()]);
    if (
      !best ||
      confidence > best.confidence ||
      (confidence === best.confidence && group.top > best.group.top)
    )
      best = { group, confidence };
  }
  return best;
}

/** A text that names a nested object (`€50,000 – €65,000 per year`) read as a small node: range ends, currency, unit. */
function scalarNode(value: FactScalar, evidence: EvidenceKind): FactNode {
  const node = newNode('structure', evidence);
  const text = String(value);
  node.entries.push({ key: 'value', value }, { key: 'name', value });
  const range = typeof value === 'string' ? parseRange(text) : undefined;
  if (range) {
    node.entries.push({ key: 'minValue', value: range[0] }, { key: 'maxValue', value: range[1] });
  } else {
    const n = parseNumber(text);
    if (n !== undefined) node.entries.push({ key: 'amount', value: n });
  }
  const currency = typeof value === 'string' ? detectCurrency(text) : undefined;
  if (currency) node.entries.push({ key: 'currency', value: currency });
  const unit =
    /\b(?:per|a|an|\/)\s?(year|yr|annum|month|mo|week|wk|day|hour|hr)\b|\b(annually|yearly|monthly|weekly|daily|hourly)\b/i.exec(
      text,
    );
  if (unit) {
    const word = (unit[1] ?? unit[2] ?? '').toLowerCase();
    const period = /^(year|yr|annum|annually|yearly)/.test(word)
      ? 'YEAR'
      : /^(month|mo)/.test(word)
        ? 'MONTH'
        : /^(week|wk)/.test(word)
          ? 'WEEK'
          : /^(day|daily)/.test(word)
            ? 'DAY'
            : 'HOUR';
    node.entries.push({ key: 'unitText', value: period });
  }
  return node;
}

function hasValue(result: FillResult): result is { ok: true; value: Record<string, unknown> } {
  return result.ok && Object.values(result.value).some((v) => v !== null);
}

function fillNested(
  name: string,
  prop: SchemaProperty,
  target: NameTarget,
  contexts: Context[],
  scope: FillScope,
  path: string[],
): PropertyFill {
  for (const candidate of findCandidates(contexts, target)) {
    if (candidate.confidence < CONFIDENCE_FLOOR) break;
    const node = isNode(candidate.value) ? candidate.value : scalarNode(candidate.value, candidate.evidence);
    const result = fillObject(prop, [itemContext(node)], scope, path);
    if (hasValue(result)) return { found: true, value: result.value };
  }
  // No node names the object: look for its properties in the surrounding
  // contexts, but only by names specific enough ("price", not "name"), or by
  // the combined name ("author name").
  const specific: Record<string, SchemaProperty> = {};
  for (const [child, childProp] of Object.entries(prop.properties ?? {})) {
    const combined = nameTarget(`${name} ${child}`);
    const direct = findCandidates(contexts, combined).some((c) => c.match >= 0.8);
    if (direct || !GENERIC_CHILD.has(nameTarget(child).phrase)) specific[child] = childProp;
  }
  const total = Object.keys(prop.properties ?? {}).length;
  if (Object.keys(specific).length === 0) return { found: false };
  const result = fillObject({ ...prop, properties: specific }, contexts, scope, path);
  if (!hasValue(result)) return { found: false };
  const found = Object.values(result.value).filter((v) => v !== null).length;
  return found * 2 >= total ? { found: true, value: result.value } : { found: false };
}

/** Items of lists and how-to sections stand for their elements. */
function expandLists(values: (FactScalar | FactNode)[]): (FactScalar | FactNode)[] {
  const out: (FactScalar | FactNode)[] = [];
  for (const v of values) {
    if (isNode(v) && valuesOf(v, 'itemListElement').length > 0)
      out.push(...expandLists(valuesOf(v, 'itemListElement')));
    else if (isNode(v) && v.types.includes('ListItem') && valuesOf(v, 'item').length > 0)
      out.push(...expandLists(valuesOf(v, 'item')));
    else out.push(v);
  }
  return out;
}

/** One text holding a list: `a, b, c` or lines or bullets. */
function splitList(text: string): string[] {
  const parts = text
    .split(/\s*(?:\n|;|\||•|·|,(?!\d{3}))\s*/)
    .map((p) => p.trim())
    .filter(Boolean);
  return parts.length >= 2 ? parts : [text];
}

function fillArray(
  prop: SchemaProperty,
  target: NameTarget,
  contexts: Context[],
  scope: FillScope,
  path: string[],
): PropertyFill {
  const itemSchema: SchemaProperty = prop.items ?? { type: 'string' };
  const objectItems = declaredTypes(itemSchema).includes('object') && !itemSchema.enum;
  const ctx: CoerceContext = { pageUrl: scope.facts.url, target, lang: scope.facts.lang };
  const tried = new Map<FactNode, Set<string>>();
  const floor = floorFor(target, contexts, scope.facts);
  for (const candidate of findCandidates(contexts, target)) {
    if (candidate.confidence < floor) break;
    const keys = tried.get(candidate.parent) ?? new Set<string>();
    if (keys.has(candidate.key)) continue;
    keys.add(candidate.key);
    tried.set(candidate.parent, keys);
    const values = expandLists(siblingsOf(candidate));
    const items = objectItems
      ? fillObjectItems(itemSchema, values, scope, path)
      : fillScalarItems(itemSchema, values, ctx);
    if (items.length > 0) return { found: true, value: items };
  }
  if (objectItems) {
    const rows = bestTable(itemSchema, target, scope);
    if (rows) {
      const items = fillObjectItems(itemSchema, rows, scope, path);
      if (items.length > 0) return { found: true, value: items };
    }
  }
  return { found: false };
}

function fillObjectItems(
  itemSchema: SchemaProperty,
  values: (FactScalar | FactNode)[],
  scope: FillScope,
  path: string[],
): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  for (const v of values) {
    const node = isNode(v) ? v : scalarNode(v, 'list');
    const result = fillObject(itemSchema, [itemContext(node)], scope, path);
    if (hasValue(result)) items.push(result.value);
  }
  return items;
}

/** Scalar items: each coerced to the item type and checked for its meaning; items that do not fit are dropped, not bent. */
function fillScalarItems(
  itemSchema: SchemaProperty,
  values: (FactScalar | FactNode)[],
  ctx: CoerceContext,
): unknown[] {
  const expanded = values.length === 1 && typeof values[0] === 'string' ? splitList(values[0]) : values;
  const meaning: TextMeaning = itemSchema.enum ? 'text' : meaningOf(ctx.target);
  const items: unknown[] = [];
  const seen = new Set<string>();
  for (const v of expanded) {
    let item = coerceScalar(v, itemSchema, ctx);
    if (typeof item === 'string' && !itemSchema.format && !itemSchema.enum) item = fitMeaning(item, meaning);
    if (item === undefined || item === '') continue;
    const key = comparisonForm(item, meaning);
    if (seen.has(key)) continue;
    seen.add(key);
    items.push(item);
  }
  return items;
}

/**
 * The table whose caption names the property (or whose caption's last word the
 * query names: "the options" for a table or definition list under "Command-Line
 * Options"), or whose header cells name most of the item's properties.
 */
function bestTable(itemSchema: SchemaProperty, target: NameTarget, scope: FillScope): FactNode[] | undefined {
  const childTargets = Object.entries(itemSchema.properties ?? {}).map(([n, p]) =>
    nameTarget(n, p.description),
  );
  let best: { rows: FactNode[]; score: number } | undefined;
  for (const table of scope.facts.tables) {
    const named = childTargets.filter((t) =>
      table.headers.some((h) => matchScore(t, [h]) >= MATCH_THRESHOLD),
    ).length;
    const captionNamed =
      table.caption !== '' &&
      (matchScore(target, [table.caption]) >= MATCH_THRESHOLD ||
        queryNames(table.caption, scope.queryTokens));
    const score = named + (captionNamed ? 1 : 0);
    if (named * 2 >= childTargets.length && named > 0 && (!best || score > best.score)) {
      best = { rows: table.rows, score };
    }
  }
  return best?.rows;
}

/** Whether the query names a caption's last word (its head noun in English: "Command-Line Options"). */
function queryNames(caption: string, query: ReadonlySet<string> | undefined): boolean {
  const last = tokenize(caption).at(-1);
  return last !== undefined && query?.has(last) === true;
}
