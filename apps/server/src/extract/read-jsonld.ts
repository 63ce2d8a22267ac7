import type { CheerioAPI } from 'cheerio';
import { type FactNode, type FactScalar, newNode } from './page-facts.js';

/** How deep `@id` references are followed: enough for Article → author → Organization, bounded against cycles. */
const MAX_DEPTH = 6;

/**
 * Reads every `<script type="application/ld+json">` block. Arrays and `@graph`
 * are flattened into top-level items; objects that only reference another by
 * `@id` are replaced by that object. Blocks that are not valid JSON are
 * skipped after one lenient retry (trailing commas and raw newlines in
 * strings are common in hand-written blocks).
 */
export function readJsonLd($: CheerioAPI): FactNode[] {
  const blocks: unknown[] = [];
  $('script[type="application/ld+json" i]').each((_, el) => {
    const text = $(el).text().trim();
    if (text) blocks.push(parseLenient(text));
  });
  return nodesFromJson(blocks);
}

/**
 * Fact nodes from parsed JSON-LD (or any JSON document: a JSON API response
 * is read the same way, its keys matched like schema.org properties).
 */
export function nodesFromJson(parsed: unknown): FactNode[] {
  const items: Record<string, unknown>[] = [];
  collectItems(parsed, items);
  const byId = new Map<string, Record<string, unknown>>();
  for (const item of items) {
    const id = item['@id'];
    if (typeof id === 'string' && Object.keys(item).length > 1) byId.set(id, item);
  }
  return items
    .filter((item) => Object.keys(item).some((k) => !k.startsWith('@')) || item['@type'] !== undefined)
    .map((item) => toNode(item, byId, 0));
}

function parseLenient(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const repaired = text
      // Blocks wrapped for old XHTML parsers: <![CDATA[ … ]]> (also behind // or /* */), <!-- … -->.
      .replace(/^\s*(?:\/\/|\/\*)?\s*<!\[CDATA\[(?:\s*\*\/)?|(?:\/\/|\/\*)?\s*\]\]>(?:\s*\*\/)?\s*$/g, '')
      .replace(/^\s*<!--|-->\s*$/g, '')
      .replace(/,\s*([}\]])/g, '$1')
      .replace(/[\r\n\t]+/g, ' ');
    try {
      return JSON.parse(repaired);
    } catch {
      return undefined;
    }
  }
}

function collectItems(value: unknown, out: Record<string, unknown>[]): void {
  if (Array.isArray(value)) {
    for (const v of value) collectItems(v, out);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const obj = value as Record<string, unknown>;
  if (Array.isArray(obj['@graph'])) {
    collectItems(obj['@graph'], out);
    const rest = Object.keys(obj).filter((k) => k !== '@graph' && k !== '@context');
    if (rest.length === 0) return;
  }
  out.push(obj);
}

/** `https://schema.org/Product` and `schema:Product` become `Product`. */
export function shortType(type: string): string {
  const cut = Math.max(type.lastIndexOf('/'), type.lastIndexOf(':'), type.lastIndexOf('#'));
  return cut >= 0 ? type.slice(cut + 1) : type;
}

function toNode(
  obj: Record<string, unknown>,
  byId: Map<string, Record<string, unknown>>,
  depth: number,
): FactNode {
  const rawType = obj['@type'];
  const types = (Array.isArray(rawType) ? rawType : rawType === undefined ? [] : [rawType])
    .filter((t): t is string => typeof t === 'string')
    .map(shortType);
  const node = newNode('jsonld', 'jsonld', types);
  for (const [key, raw] of Object.entries(obj)) {
    if (key.startsWith('@')) {
      // An @id is the item's address only when it has no url of its own and is not a fragment name.
      if (
        key === '@id' &&
        typeof raw === 'string' &&
        /^https?:/.test(raw) &&
        !raw.includes('#') &&
        !('url' in obj)
      )
        node.entries.push({ key: 'url', value: raw });
      continue;
    }
    for (const value of Array.isArray(raw) ? raw : [raw]) {
      const converted = convert(value, byId, depth);
      if (converted !== undefined) node.entries.push({ key, value: converted });
    }
  }
  return node;
}

function convert(
  value: unknown,
  byId: Map<string, Record<string, unknown>>,
  depth: number,
): FactScalar | FactNode | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value.trim() === '' ? undefined : decodeEntities(value.trim());
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return undefined; // nested arrays are flattened by the caller
  if (typeof value !== 'object') return undefined;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj);
  // {"@value": "…"} literals.
  if ('@value' in obj) return convert(obj['@value'], byId, depth);
  const id = obj['@id'];
  if (typeof id === 'string') {
    const target = byId.get(id);
    // A reference, possibly with a few keys repeated inline ({"@id": …, "name": …}): the full item, inline keys winning.
    if (target && target !== obj && depth < MAX_DEPTH) return toNode({ ...target, ...obj }, byId, depth + 1);
    if (keys.every((k) => k === '@id' || k === '@type')) return /^https?:/.test(id) ? id : undefined;
  }
  if (depth >= MAX_DEPTH) return undefined;
  return toNode(obj, byId, depth + 1);
}

/** JSON-LD strings are sometimes HTML-escaped by CMSes (`&amp;`, `&#039;`). */
function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;|&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&nbsp;/g, ' ')
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)));
}
