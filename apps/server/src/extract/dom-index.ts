import type { CheerioAPI } from 'cheerio';
import { attrOf, closestWhere, type DomNode, tagName } from './text-utils.js';

/**
 * Every element of a parsed page in document order, and by tag, gathered in
 * one walk. The readers ask it instead of running a selector query each
 * (cheerio compiles and runs every selector over the whole tree; a page is
 * read by a dozen of them).
 */
export class DomIndex {
  /** Every element, in document order. */
  readonly all: DomNode[] = [];
  private readonly byTag = new Map<string, DomNode[]>();

  constructor($: CheerioAPI) {
    const walk = (node: DomNode) => {
      for (const child of (node as { children?: DomNode[] }).children ?? []) {
        const tag = tagName(child);
        if (!tag) continue;
        this.all.push(child);
        const list = this.byTag.get(tag);
        if (list) list.push(child);
        else this.byTag.set(tag, [child]);
        walk(child);
      }
    };
    const root = $.root().get(0);
    if (root) walk(root);
  }

  /** The elements of one tag, in document order. */
  tag(name: string): DomNode[] {
    return this.byTag.get(name) ?? [];
  }

  /** The first element of a tag. */
  first(name: string): DomNode | undefined {
    return this.byTag.get(name)?.[0];
  }

  /** The elements of any of the tags, in document order. */
  tags(names: ReadonlySet<string>): DomNode[] {
    return this.all.filter((el) => names.has(tagName(el)));
  }

  /** The elements that have an attribute, in document order. */
  withAttr(name: string): DomNode[] {
    return this.all.filter((el) => attrOf(el, name) !== undefined);
  }

  /**
   * The elements with attribute `property`, grouped by their nearest
   * ancestor with attribute `scope` (`itemprop` by `itemscope`, RDFa's
   * `property` by `typeof`); those with no such ancestor under `undefined`.
   */
  byScope(property: string, scope: string): Map<DomNode | undefined, DomNode[]> {
    const groups = new Map<DomNode | undefined, DomNode[]>();
    for (const el of this.withAttr(property)) {
      const owner = closestWhere(el, (n) => attrOf(n, scope) !== undefined, true);
      const list = groups.get(owner);
      if (list) list.push(el);
      else groups.set(owner, [el]);
    }
    return groups;
  }
}
