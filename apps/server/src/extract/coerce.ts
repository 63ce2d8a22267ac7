import type { SchemaProperty } from '@webdata/contract';
import type { NameTarget } from './names.js';
import { type FactNode, type FactScalar, isNode, valuesOf } from './page-facts.js';
import { formatDate, formatDateTime, parseDate } from './parse-date.js';
import { detectCurrency, parseDurationMinutes, parseNumber, parseRange } from './parse-number.js';
import { absolutise } from './read-structure.js';

/** The JSON types a property accepts, `null` left out, in the order declared. */
export function declaredTypes(prop: SchemaProperty): string[] {
  const raw = Array.isArray(prop.type) ? prop.type : prop.type ? [prop.type] : [];
  const types = raw.filter((t) => t !== 'null');
  if (types.length > 0) return types;
  if (prop.properties) return ['object'];
  if (prop.items) return ['array'];
  if (prop.enum) return [...new Set(prop.enum.map((v) => (typeof v === 'number' ? 'number' : typeof v)))];
  return ['string'];
}

/** Whether the schema lets a property be `null` (`nullable: true` or `"null"` among its types). */
export function allowsNull(prop: SchemaProperty): boolean {
  return (
    prop.nullable === true || (Array.isArray(prop.type) && prop.type.includes('null')) || prop.type === 'null'
  );
}

/** Context a coercion may need: the page URL (relative links), its language (numbers, dates) and the property's name target. */
export interface CoerceContext {
  pageUrl: string;
  target: NameTarget;
  /** The page's language (BCP 47), when stated. */
  lang?: string | undefined;
  /** The value is code (a heading's one code block, `code` evidence): a text property keeps its lines. */
  code?: boolean | undefined;
}

const LOW_END = new Set(['min', 'minimum', 'low', 'lowest', 'from', 'least']);
const HIGH_END = new Set(['max', 'maximum', 'high', 'highest', 'to', 'most', 'upto']);
const SCHEMA_ORG_ENUM = /^https?:\/\/schema\.org\/(\w+)$/i;
const TRUE_WORDS =
  /^(yes|y|true|1|on|in ?stock|available|available now|limited ?availability|pre ?order|on ?sale|open|included|remote|online|telecommute|fully remote|ja|oui|si|sí)$/i;
const FALSE_WORDS =
  /^(no|n|false|0|off|out ?of ?stock|sold ?out|unavailable|not available|discontinued|closed|none|no longer available|nein|non)$/i;

/**
 * Coerces one value read from the page to the scalar type a property declares
 * (string, number, integer, boolean, enum, `format: date`/`date-time`/`email`/`uri`).
 * Returns `undefined` when the value cannot honestly be read as that type —
 * it is never bent to fit: `$19.99` is no integer, `5 March 2024` (no time,
 * no zone) is no `date-time`.
 */
export function coerceScalar(
  value: FactScalar | FactNode,
  prop: SchemaProperty,
  ctx: CoerceContext,
): unknown {
  if (prop.enum) return matchEnum(value, prop.enum);
  for (const type of declaredTypes(prop)) {
    let out: unknown;
    if (type === 'string') out = toStringValue(value, prop, ctx);
    else if (type === 'number') out = toNumber(value, ctx);
    else if (type === 'integer') {
      const n = toNumber(value, ctx);
      out = n !== undefined && Number.isSafeInteger(n) ? n : undefined;
    } else if (type === 'boolean') out = toBoolean(value);
    if (out !== undefined) return out;
  }
  return undefined;
}

/** The text a node stands for: a person's or place's name, an address on one line, a step's text. */
export function nodeText(node: FactNode): string | undefined {
  const first = (key: string): string | undefined => {
    for (const v of valuesOf(node, key)) {
      if (typeof v === 'string' || typeof v === 'number') return String(v);
      if (isNode(v)) {
        const inner = nodeText(v);
        if (inner) return inner;
      }
    }
    return undefined;
  };
  if (node.types.includes('PostalAddress')) {
    const parts = ['streetAddress', 'addressLocality', 'addressRegion', 'postalCode', 'addressCountry']
      .map(first)
      .filter((p): p is string => Boolean(p));
    if (parts.length > 0) return parts.join(', ');
  }
  for (const key of [
    'name',
    'text',
    'headline',
    'title',
    'value',
    'price',
    'address',
    'ratingValue',
    'url',
    'contentUrl',
  ]) {
    const v = first(key);
    if (v) return v;
  }
  return undefined;
}

/**
 * What a documented item returns (`read-signatures.ts`: a node of its
 * `type` and `description`, no name) as one text: its type where the
 * property asks for a type ("return type"), else its description, else its type.
 */
function returnsText(value: FactScalar | FactNode, target: NameTarget): string | undefined {
  if (!isNode(value) || value.evidence !== 'signature' || valuesOf(value, 'name').length > 0)
    return undefined;
  const type = valuesOf(value, 'type')[0];
  const description = valuesOf(value, 'description')[0];
  const first = target.tokens.includes('type') ? (type ?? description) : (description ?? type);
  return typeof first === 'string' ? first : undefined;
}

function toText(value: FactScalar | FactNode): string | undefined {
  if (isNode(value)) return nodeText(value);
  return String(value);
}

function isCurrencyTarget(target: NameTarget): boolean {
  return target.concepts.has('currency') || target.tokens.includes('currency');
}

function isDurationTarget(target: NameTarget): boolean {
  const words = [...target.tokens, ...target.descriptionTokens];
  return words.some((w) => ['time', 'duration', 'minute', 'hour', 'runtime', 'length'].includes(w));
}

function isUrlTarget(prop: SchemaProperty, target: NameTarget): boolean {
  if (prop.format === 'uri' || prop.format === 'url' || prop.format === 'iri') return true;
  return target.tokens.some((t) =>
    ['url', 'link', 'image', 'logo', 'photo', 'thumbnail', 'website', 'href'].includes(t),
  );
}

function toStringValue(
  value: FactScalar | FactNode,
  prop: SchemaProperty,
  ctx: CoerceContext,
): string | undefined {
  // A link read as a node (its text and its address): a URL property takes the address.
  const linked = isNode(value) && isUrlTarget(prop, ctx.target) ? valuesOf(value, 'url')[0] : undefined;
  const text = (returnsText(value, ctx.target) ?? toText(typeof linked === 'string' ? linked : value))
    ?.replace(/[\s\u00a0]+/g, ' ')
    .trim();
  if (!text) return undefined;
  if (prop.format === 'date' || prop.format === 'date-time') {
    const date = parseDate(text, ctx.lang);
    if (!date) return undefined;
    if (prop.format === 'date') return formatDate(date);
    // RFC 3339 needs a time and a zone: a page that states neither has not given a date-time.
    return date.time && date.offset ? formatDateTime(date) : undefined;
  }
  if (prop.format === 'email' || ctx.target.concepts.has('email')) {
    const email = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/.exec(text.replace(/^mailto:/i, ''))?.[0];
    return email ?? (prop.format === 'email' ? undefined : text);
  }
  if (ctx.target.concepts.has('phone')) return text.replace(/^tel:/i, '');
  if (isCurrencyTarget(ctx.target) && !/^[A-Z]{3}$/.test(text)) return detectCurrency(text);
  if (isUrlTarget(prop, ctx.target)) {
    if (/\s/.test(text) && !/^https?:/i.test(text)) return prop.format ? undefined : text;
    const url = absolutise(text, ctx.pageUrl);
    return prop.format && !/^[a-z][\w+.-]*:/i.test(url) ? undefined : url;
  }
  const schemaOrg = SCHEMA_ORG_ENUM.exec(text);
  if (schemaOrg?.[1]) return schemaOrg[1];
  // Code was read with its lines (`codeLines`); only a text property keeps them, as written.
  return ctx.code && typeof value === 'string' ? value.trim() : text;
}

function toNumber(value: FactScalar | FactNode, ctx: CoerceContext): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return undefined;
  if (isNode(value)) {
    for (const key of ['value', 'price', 'ratingValue', 'amount', 'lowPrice', 'minValue', 'calories']) {
      for (const v of valuesOf(value, key)) {
        const n = toNumber(v, ctx);
        if (n !== undefined) return n;
      }
    }
    return undefined;
  }
  if (isDurationTarget(ctx.target)) {
    const minutes = parseDurationMinutes(value);
    if (minutes !== undefined) return minutes;
  }
  // A range ("2–4 years", "$10 – $20") is one number only for a property that asks for its low or high end.
  const range = parseRange(value);
  if (range) {
    if (ctx.target.tokens.some((t) => LOW_END.has(t))) return range[0];
    if (ctx.target.tokens.some((t) => HIGH_END.has(t))) return range[1];
    return undefined;
  }
  return parseNumber(value, ctx.lang);
}

function toBoolean(value: FactScalar | FactNode): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  const text = toText(value)?.trim();
  if (!text) return undefined;
  const word = (SCHEMA_ORG_ENUM.exec(text)?.[1] ?? text)
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[!.]$/, '')
    .trim();
  if (FALSE_WORDS.test(word)) return false;
  if (TRUE_WORDS.test(word)) return true;
  return undefined;
}

function normalEnum(text: string): string {
  return (SCHEMA_ORG_ENUM.exec(text)?.[1] ?? text).toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/**
 * The allowed value a page value stands for: equal ignoring case, then equal
 * ignoring punctuation and schema.org URLs (`https://schema.org/InStock` →
 * `in_stock`), then the allowed value contained in the text (longest first)
 * or the text contained in it. Undefined when none is close: the property is
 * then omitted rather than forced.
 */
export function matchEnum(value: FactScalar | FactNode, allowed: unknown[]): unknown {
  const text = isNode(value) ? nodeText(value) : String(value);
  if (text === undefined) return undefined;
  const numeric = parseNumber(text);
  for (const a of allowed) {
    if (typeof a === 'number' && numeric === a) return a;
    if (typeof a === 'boolean' && toBoolean(value) === a) return a;
  }
  const strings = allowed.filter((a): a is string => typeof a === 'string');
  const lower = text.trim().toLowerCase();
  const exact = strings.find((a) => a.toLowerCase() === lower);
  if (exact !== undefined) return exact;
  const normal = normalEnum(text);
  if (!normal) return undefined;
  const same = strings.find((a) => normalEnum(a) === normal);
  if (same !== undefined) return same;
  const contained = strings
    .filter((a) => normalEnum(a).length >= 2 && normal.includes(normalEnum(a)))
    .sort((a, b) => normalEnum(b).length - normalEnum(a).length)[0];
  if (contained !== undefined) return contained;
  if (normal.length >= 3) {
    const containing = strings.filter((a) => normalEnum(a).includes(normal));
    if (containing.length === 1) return containing[0];
  }
  return undefined;
}
