import type { SchemaProperty } from '@webdata/contract';
import { findCandidates, siblingsOf } from './candidates.js';
import { allowsNull, type CoerceContext, coerceScalar, declaredTypes } from './coerce.js';
import { MATCH_THRESHOLD, matchScore, type NameTarget, nameTarget } from './names.js';
import { type FactNode, type FactScalar, isNode, newNode, type PageFacts, valuesOf } from './page-facts.js';
import { detectCurrency, parseNumber, parseRange } from './parse-number.js';

/** An object filled from the page, or the path of the first required property that could not be found. */
export type FillResult = { ok: true; value: Record<string, unknown> } | { ok: false; missing: string };

/** Page-wide inputs of a fill. */
export interface FillScope {
  facts: PageFacts;
}

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
 * Fills an object schema from the given context nodes (in order of trust).
 * Each property takes the first candidate that coerces to its type; one that
 * is not found is omitted, or `null` when the schema allows null. A required
 * property that is neither found nor nullable fails the object.
 */
export function fillObject(
  schema: SchemaProperty,
  contexts: FactNode[],
  scope: FillScope,
  path: string[] = [],
): FillResult {
  const out: Record<string, unknown> = {};
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    const value = fillProperty(name, prop, contexts, scope, [...path, name]);
    if (value !== undefined) out[name] = value;
    else if (allowsNull(prop)) out[name] = null;
  }
  for (const name of schema.required ?? []) {
    if (!(name in out)) return { ok: false, missing: [...path, name].join('.') };
  }
  return { ok: true, value: out };
}

function fillProperty(
  name: string,
  prop: SchemaProperty,
  contexts: FactNode[],
  scope: FillScope,
  path: string[],
): unknown {
  const target = nameTarget(name, prop.description);
  for (const type of prop.enum ? ['scalar'] : declaredTypes(prop)) {
    let value: unknown;
    if (type === 'object') value = fillNested(name, prop, target, contexts, scope, path);
    else if (type === 'array') value = fillArray(prop, target, contexts, scope, path);
    else value = fillScalar(prop, target, contexts, scope);
    if (value !== undefined) return value;
  }
  return undefined;
}

function fillScalar(
  prop: SchemaProperty,
  target: NameTarget,
  contexts: FactNode[],
  scope: FillScope,
): unknown {
  const ctx: CoerceContext = { pageUrl: scope.facts.url, target };
  for (const candidate of findCandidates(contexts, target)) {
    const value = coerceScalar(candidate.value, prop, ctx);
    if (value !== undefined && value !== '') return value;
  }
  // A currency is often only written as the sign of a price.
  if (target.concepts.has('currency')) {
    for (const candidate of findCandidates(contexts, nameTarget('price'))) {
      const text = typeof candidate.value === 'string' ? candidate.value : undefined;
      const code = text ? detectCurrency(text) : undefined;
      if (code) return coerceScalar(code, prop, ctx);
    }
  }
  return undefined;
}

/** A text that names a nested object (`€50,000 – €65,000 per year`) read as a small node: range ends, currency, unit. */
function scalarNode(value: FactScalar): FactNode {
  const node = newNode('structure');
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
  contexts: FactNode[],
  scope: FillScope,
  path: string[],
): Record<string, unknown> | undefined {
  for (const candidate of findCandidates(contexts, target)) {
    const node = isNode(candidate.value) ? candidate.value : scalarNode(candidate.value);
    const result = fillObject(prop, [node], scope, path);
    if (hasValue(result)) return result.value;
  }
  // No node names the object: look for its properties in the surrounding
  // contexts, but only by names specific enough ("price", not "name"), or by
  // the combined name ("author name").
  const specific: Record<string, SchemaProperty> = {};
  for (const [child, childProp] of Object.entries(prop.properties ?? {})) {
    const combined = nameTarget(`${name} ${child}`);
    const direct = findCandidates(contexts, combined).some((c) => c.score >= 0.8);
    if (direct || !GENERIC_CHILD.has(nameTarget(child).phrase)) specific[child] = childProp;
  }
  const total = Object.keys(prop.properties ?? {}).length;
  if (Object.keys(specific).length === 0) return undefined;
  const result = fillObject({ ...prop, properties: specific }, contexts, scope, path);
  if (!hasValue(result)) return undefined;
  const found = Object.values(result.value).filter((v) => v !== null).length;
  return found * 2 >= total ? result.value : undefined;
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
  contexts: FactNode[],
  scope: FillScope,
  path: string[],
): unknown[] | undefined {
  const itemSchema: SchemaProperty = prop.items ?? { type: 'string' };
  const objectItems = declaredTypes(itemSchema).includes('object') && !itemSchema.enum;
  const ctx: CoerceContext = { pageUrl: scope.facts.url, target };
  const tried = new Map<FactNode, Set<string>>();
  for (const candidate of findCandidates(contexts, target)) {
    const keys = tried.get(candidate.parent) ?? new Set<string>();
    if (keys.has(candidate.key)) continue;
    keys.add(candidate.key);
    tried.set(candidate.parent, keys);
    const values = expandLists(siblingsOf(candidate));
    const items = objectItems
      ? fillObjectItems(itemSchema, values, scope, path)
      : fillScalarItems(itemSchema, values, ctx);
    if (items.length > 0) return items;
  }
  if (objectItems) {
    const rows = bestTable(itemSchema, target, scope.facts);
    if (rows) {
      const items = fillObjectItems(itemSchema, rows, scope, path);
      if (items.length > 0) return items;
    }
  }
  return undefined;
}

function fillObjectItems(
  itemSchema: SchemaProperty,
  values: (FactScalar | FactNode)[],
  scope: FillScope,
  path: string[],
): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  for (const v of values) {
    const result = fillObject(itemSchema, [isNode(v) ? v : scalarNode(v)], scope, path);
    if (hasValue(result)) items.push(result.value);
  }
  return items;
}

function fillScalarItems(
  itemSchema: SchemaProperty,
  values: (FactScalar | FactNode)[],
  ctx: CoerceContext,
): unknown[] {
  const expanded = values.length === 1 && typeof values[0] === 'string' ? splitList(values[0]) : values;
  const items: unknown[] = [];
  const seen = new Set<string>();
  for (const v of expanded) {
    const item = coerceScalar(v, itemSchema, ctx);
    if (item === undefined || item === '') continue;
    const key = JSON.stringify(item);
    if (seen.has(key)) continue;
    seen.add(key);
    items.push(item);
  }
  return items;
}

/** The table whose caption names the property, or whose header cells name most of the item's properties. */
function bestTable(itemSchema: SchemaProperty, target: NameTarget, facts: PageFacts): FactNode[] | undefined {
  const childTargets = Object.entries(itemSchema.properties ?? {}).map(([n, p]) =>
    nameTarget(n, p.description),
  );
  let best: { rows: FactNode[]; score: number } | undefined;
  for (const table of facts.tables) {
    const named = childTargets.filter((t) =>
      table.headers.some((h) => matchScore(t, [h]) >= MATCH_THRESHOLD),
    ).length;
    const captionBonus = table.caption && matchScore(target, [table.caption]) >= MATCH_THRESHOLD ? 1 : 0;
    const score = named + captionBonus;
    if (named * 2 >= childTargets.length && named > 0 && (!best || score > best.score)) {
      best = { rows: table.rows, score };
    }
  }
  return best?.rows;
}
