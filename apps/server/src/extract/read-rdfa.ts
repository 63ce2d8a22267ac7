import type { CheerioAPI } from 'cheerio';
import { type FactNode, type FactScalar, newNode } from './page-facts.js';
import { shortType } from './read-jsonld.js';
import { URL_PROPERTY } from './read-microdata.js';
import { collapse, type Selection, tagName } from './text-utils.js';

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
export function readRdfa($: CheerioAPI): FactNode[] {
  const roots: FactNode[] = [];
  $('[typeof]').each((_, el) => {
    const $el = $(el);
    if ($el.is('[property]') && $el.parent().closest('[typeof]').length > 0) return;
    roots.push(readItem($, $el, 0));
  });
  const loose = newNode('rdfa', 'rdfa');
  $('body [property]').each((_, el) => {
    const $el = $(el);
    if ($el.parent().closest('[typeof]').length > 0 || $el.is('[typeof]')) return;
    if ($el.closest('[itemscope]').length > 0) return; // microdata pages sometimes mix in `property`
    addProperty($, $el, loose, 0);
  });
  if (loose.entries.length > 0) roots.push(loose);
  return roots;
}

function readItem($: CheerioAPI, $item: Selection, depth: number): FactNode {
  const types = ($item.attr('typeof') ?? '').split(/\s+/).filter(Boolean).map(shortType);
  const node = newNode('rdfa', 'rdfa', types);
  const self = $item.get(0);
  $item.find('[property]').each((_, propEl) => {
    const $prop = $(propEl);
    if ($prop.parent().closest('[typeof]').get(0) !== self) return;
    addProperty($, $prop, node, depth);
  });
  return node;
}

function addProperty($: CheerioAPI, $prop: Selection, node: FactNode, depth: number): void {
  const value = readValue($, $prop, depth);
  if (value === undefined) return;
  for (const term of ($prop.attr('property') ?? '').split(/\s+/).filter(Boolean)) {
    node.entries.push({ key: localName(term), value });
  }
}

function readValue($: CheerioAPI, $prop: Selection, depth: number): FactScalar | FactNode | undefined {
  if ($prop.is('[typeof]')) return depth < MAX_DEPTH ? readItem($, $prop, depth + 1) : undefined;
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
