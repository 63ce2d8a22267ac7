import type { Cheerio, CheerioAPI } from 'cheerio';

/** Collapses runs of whitespace (including non-breaking spaces) to one space and trims. */
export function collapse(text: string): string {
  return text.replace(/[\s\u00a0\u200b]+/g, ' ').trim();
}

/** The lower-case tag name of a parsed element, or '' for text and other nodes (htmlparser2 gives HTML names in lower case). */
export function tagName(node: unknown): string {
  const n = node as { name?: unknown; type?: unknown } | undefined;
  return typeof n?.name === 'string' && (n.type === 'tag' || n.type === 'script' || n.type === 'style')
    ? n.name
    : '';
}

/** cheerio's node type (its `domhandler` dependency is not importable from here). */
type Walkable = { parent?: unknown; attribs?: Record<string, string> };

/** An element's attribute, read off the parsed node (no selector to compile). */
export function attrOf(node: unknown, name: string): string | undefined {
  return (node as Walkable | undefined)?.attribs?.[name];
}

/**
 * The nearest element from `node` upwards (itself included unless `fromParent`)
 * that passes `test`. A walk over parents: in loops over many elements this
 * is much cheaper than cheerio's `closest(selector)`, which compiles its selector each call.
 */
export function closestWhere(
  node: unknown,
  test: (n: DomNode) => boolean,
  fromParent = false,
): DomNode | undefined {
  let current = (fromParent ? (node as Walkable).parent : node) as Walkable | undefined;
  while (current && (current as { type?: string }).type !== 'root') {
    if (tagName(current) && test(current as DomNode)) return current as DomNode;
    current = current.parent as Walkable | undefined;
  }
  return undefined;
}

/** Whether `node` is `ancestor` or inside it. */
export function isWithin(node: unknown, ancestor: unknown): boolean {
  for (let n = node as Walkable | undefined; n; n = n.parent as Walkable | undefined)
    if (n === ancestor) return true;
  return false;
}

export type DomNode = Parameters<CheerioAPI['contains']>[0];
/** A cheerio selection of any nodes. */
export type Selection = Cheerio<DomNode>;

/** Elements that are blocks of page content (a paragraph, a cell, a heading…). */
export const BLOCK_TAGS: ReadonlySet<string> = new Set([
  'p',
  'li',
  'div',
  'dd',
  'dt',
  'td',
  'th',
  'tr',
  'ul',
  'ol',
  'dl',
  'table',
  'section',
  'article',
  'main',
  'aside',
  'header',
  'footer',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'figure',
  'address',
]);
/** Blocks for text layout: the content blocks plus page chrome that also breaks lines. */
const BLOCK_TEXT_TAGS = new Set([...BLOCK_TAGS, 'nav', 'form', 'title']);
const SKIPPED_TAGS = new Set(['script', 'style', 'noscript', 'template', 'svg', 'iframe', 'head']);

/**
 * The text of a parsed node with line breaks at block boundaries and `<br>`,
 * without touching the tree (cheerio's own `.text()` runs blocks together:
 * "PriceWeight").
 */
export function blockText(node: unknown): string {
  const parts: string[] = [];
  const walk = (n: unknown) => {
    const x = n as { type?: string; data?: string; name?: string; children?: unknown[] };
    if (x.type === 'text') {
      parts.push(x.data ?? '');
      return;
    }
    if (!x.children) return;
    const name = (x.name ?? '').toLowerCase();
    if (SKIPPED_TAGS.has(name)) return;
    if (name === 'br') {
      parts.push('\n');
      return;
    }
    const block = BLOCK_TEXT_TAGS.has(name);
    if (block) parts.push('\n');
    for (const child of x.children) walk(child);
    if (block) parts.push('\n');
  };
  walk(node);
  return parts.join('');
}
