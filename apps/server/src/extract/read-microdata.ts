import type { CheerioAPI } from 'cheerio';
import type { DomIndex } from './dom-index.js';
import { type FactNode, type FactScalar, newNode } from './page-facts.js';
import { shortType } from './read-jsonld.js';
import { attrOf, closestWhere, collapse, type DomNode, type Selection, tagName } from './text-utils.js';

const isItem = (n: DomNode) => attrOf(n, 'itemscope') !== undefined;

const MAX_DEPTH = 6;
/** Properties whose value is an address even on an `<a>` with text. */
export const URL_PROPERTY =
  /url|image|logo|photo|link|sameas|href|thumbnail|contenturl|embed|map|reservation|menu/i;

/**
 * Reads schema.org microdata: every `itemscope` that is not itself a property
 * of another item becomes a top-level node; `itemprop`s belong to their
 * nearest enclosing `itemscope`, nested items become nested nodes. A property's
 * value follows the microdata rules: `content`, then `href`/`src`,
 * `datetime`, `value`, else the element's text.
 */
export function readMicrodata($: CheerioAPI, index: DomIndex): FactNode[] {
  const props = index.byScope('itemprop', 'itemscope');
  const roots: FactNode[] = [];
  for (const el of index.withAttr('itemscope')) {
    if (attrOf(el, 'itemprop') !== undefined && closestWhere(el, isItem, true)) continue;
    roots.push(readItem($, $(el), props, 0));
  }
  return roots;
}

function readItem(
  $: CheerioAPI,
  $item: Selection,
  props: Map<DomNode | undefined, DomNode[]>,
  depth: number,
): FactNode {
  const types = ($item.attr('itemtype') ?? '').split(/\s+/).filter(Boolean).map(shortType);
  const node = newNode('microdata', 'microdata', types);
  for (const propEl of props.get($item.get(0)) ?? []) {
    const $prop = $(propEl);
    const value = readValue($, $prop, props, depth);
    if (value === undefined) continue;
    for (const name of ($prop.attr('itemprop') ?? '').split(/\s+/).filter(Boolean)) {
      node.entries.push({ key: name, value });
    }
  }
  return node;
}

function readValue(
  $: CheerioAPI,
  $prop: Selection,
  props: Map<DomNode | undefined, DomNode[]>,
  depth: number,
): FactScalar | FactNode | undefined {
  if (isItem($prop.get(0) as DomNode))
    return depth < MAX_DEPTH ? readItem($, $prop, props, depth + 1) : undefined;
  const tag = tagName($prop.get(0));
  const attr = (name: string) => $prop.attr(name)?.trim();
  let value: string | undefined;
  if (attr('content') !== undefined) value = attr('content');
  else if (tag === 'a' || tag === 'link' || tag === 'area') {
    // The spec gives a link's href; for a non-address property ("articleSection") the visible text is what a reader means.
    const text = tag === 'a' ? collapse($prop.text()) : '';
    value = text && !URL_PROPERTY.test($prop.attr('itemprop') ?? '') ? text : attr('href');
  } else if (['img', 'audio', 'video', 'source', 'embed', 'iframe', 'track'].includes(tag))
    value = attr('src');
  else if (tag === 'time' && attr('datetime')) value = attr('datetime');
  else if ((tag === 'data' || tag === 'meter') && attr('value') !== undefined) value = attr('value');
  else value = collapse($prop.text());
  return value === undefined || value === '' ? undefined : value;
}
