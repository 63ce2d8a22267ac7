import type { CheerioAPI } from 'cheerio';
import type { DomIndex } from './dom-index.js';
import { type FactNode, type FactScalar, newNode } from './page-facts.js';
import { shortType } from './read-jsonld.js';
import { URL_PROPERTY } from './read-microdata.js';
import { attrOf, closestWhere, collapse, type DomNode, type Selection, tagName } from './text-utils.js';

const isTyped = (n: DomNode) => attrOf(n, 'typeof') !== undefined;

const MAX_DEPTH = 6;

/** `schema:name`, `dc:creator`, `http://schema.org/name` → `name`, `creator`. */
function localName(term: string): string {
  return shortType(term);
}

/**
 * Reads RDFa (Lite and the common parts of 1.1): every element with
 * `typeof` that is not itself the value of an enclosing item's `property`
 * becomes a top-level node; `property` attributes belong to their nearest
 * enclosing `typeof` element; an element with both `property` and `typeof`
 * is a nested item. Properties outside any typed element (a `dc:creator`
 * span in the body) are gathered in one untyped node. A value is the
 * `content` attribute, else `href`/`src`/`resource` on links and media,
 * `datetime` on `<time>`, else the element's text. `<meta>`/`<link>` in the
 * head are left to the meta-tag reader.
 */
export function readRdfa($: CheerioAPI, index: DomIndex): FactNode[] {
  const props = index.byScope('property', 'typeof');
  const roots: FactNode[] = [];
  for (const el of index.withAttr('typeof')) {
    if (attrOf(el, 'property') !== undefined && closestWhere(el, isTyped, true)) continue;
    roots.push(readItem($, $(el), props, 0));
  }
  const loose = newNode('rdfa', 'rdfa');
  for (const el of props.get(undefined) ?? []) {
    if (isTyped(el) || !closestWhere(el, (n) => tagName(n) === 'body', true)) continue;
    if (closestWhere(el, (n) => attrOf(n, 'itemscope') !== undefined)) continue; // microdata pages mix in `property`
    addProperty($, $(el), loose, props, 0);
  }
  if (loose.entries.length > 0) roots.push(loose);
  return roots;
}

type Props = Map<DomNode | undefined, DomNode[]>;

function readItem($: CheerioAPI, $item: Selection, props: Props, depth: number): FactNode {
  const types = ($item.attr('typeof') ?? '').split(/\s+/).filter(Boolean).map(shortType);
  const node = newNode('rdfa', 'rdfa', types);
  for (const propEl of props.get($item.get(0)) ?? []) addProperty($, $(propEl), node, props, depth);
  return node;
}

function addProperty($: CheerioAPI, $prop: Selection, node: FactNode, props: Props, depth: number): void {
  const value = readValue($, $prop, props, depth);
  if (value === undefined) return;
  for (const term of ($prop.attr('property') ?? '').split(/\s+/).filter(Boolean)) {
    node.entries.push({ key: localName(term), value });
  }
}

function readValue(
  $: CheerioAPI,
  $prop: Selection,
  props: Props,
  depth: number,
): FactScalar | FactNode | undefined {
  if (isTyped($prop.get(0) as DomNode))
    return depth < MAX_DEPTH ? readItem($, $prop, props, depth + 1) : undefined;
  const attr = (name: string) => $prop.attr(name)?.trim();
  const tag = tagName($prop.get(0));
  let value: string | undefined;
  if (attr('content') !== undefined) value = attr('content');
  else if (tag === 'a' || tag === 'link' || tag === 'area') {
    // As with microdata: for a property that is not an address ("author"), the link's text is what a reader means.
    const text = tag === 'a' ? collapse($prop.text()) : '';
    value =
      text && !URL_PROPERTY.test($prop.attr('property') ?? '') ? text : (attr('href') ?? attr('resource'));
  } else if (['img', 'audio', 'video', 'source', 'embed', 'iframe'].includes(tag)) value = attr('src');
  else if (tag === 'time' && attr('datetime')) value = attr('datetime');
  else if (attr('resource') !== undefined) value = attr('resource');
  else value = collapse($prop.text());
  return value === undefined || value === '' ? undefined : value;
}
