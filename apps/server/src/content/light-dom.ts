/**
 * A light tree for the content pipeline: htmlparser2's tokenizer with
 * nodes that hold only what conversion reads (tag, attributes, text,
 * parent and sibling links), and the few DOM members the converters use,
 * so the same walkers run over it and over linkedom (which Readability
 * needs). Building it costs about an eighth of a linkedom parse of the
 * same page (3.4 against 28 ms on the Python manual's ~85 KB pages):
 * linkedom keeps every node in a doubly linked list of start and end
 * markers and an attribute node per attribute.
 *
 * The tree is the one linkedom builds from the same tokens (linkedom
 * parses with htmlparser2 too): no HTML tree-construction fix-ups, so
 * callers take it only for pages with a usable `<html>` root.
 */
import { Parser } from 'htmlparser2';
import { normalizeNewlines } from './normalize-newlines.js';

export const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;

/** The DOM members of a node the content walkers read (linkedom's nodes and {@link LightNode} both have them). */
export interface ContentNode {
  readonly nodeType: number;
  textContent: string | null;
  readonly firstChild: ContentNode | null;
  readonly lastChild: ContentNode | null;
  readonly nextSibling: ContentNode | null;
  readonly previousSibling: ContentNode | null;
  readonly parentElement: ContentElement | null;
}

/** The DOM members of an element the content walkers read and change. */
export interface ContentElement extends ContentNode {
  readonly tagName: string;
  readonly firstElementChild: ContentElement | null;
  readonly lastElementChild: ContentElement | null;
  readonly nextElementSibling: ContentElement | null;
  readonly previousElementSibling: ContentElement | null;
  readonly childElementCount: number;
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  readonly classList: { add(token: string): void; contains(token: string): boolean };
  remove(): void;
}

/** What the page-level walkers read of a document. */
export interface ContentDocument {
  readonly documentElement: ContentElement | null;
  readonly head: ContentElement | null;
}

/** The first element named `tag` (upper case) under `root`, in document order. */
export function firstDescendant(root: ContentElement, tag: string): ContentElement | null {
  const stack: ContentElement[] = [];
  for (let child = root.lastElementChild; child; child = child.previousElementSibling) stack.push(child);
  while (stack.length > 0) {
    const element = stack.pop()!;
    if (tagNameOf(element) === tag) return element;
    for (let child = element.lastElementChild; child; child = child.previousElementSibling) stack.push(child);
  }
  return null;
}

/**
 * An element's tag name in upper case. A light element's is upper case
 * already; `toUpperCase()` is a call into the runtime (~30 ns) that the
 * walkers made several times for every element of a page. linkedom's is
 * upper-cased as before (an element created by script keeps its case).
 */
export function tagNameOf(element: ContentElement): string {
  return element instanceof LightElement ? element.tagName : element.tagName.toUpperCase();
}

abstract class LightNode implements ContentNode {
  abstract readonly nodeType: number;
  abstract textContent: string;
  parent: LightElement | null = null;
  next: LightNode | null = null;
  prev: LightNode | null = null;

  get firstChild(): LightNode | null {
    return null;
  }
  get lastChild(): LightNode | null {
    return null;
  }
  get nextSibling(): LightNode | null {
    return this.next;
  }
  get previousSibling(): LightNode | null {
    return this.prev;
  }
  get parentElement(): LightElement | null {
    return this.parent;
  }
}

/** A run of text (adjacent text tokens merged into one node). */
export class LightText extends LightNode {
  readonly nodeType = TEXT_NODE;
  constructor(public textContent: string) {
    super();
  }
}

/** Class list of a {@link LightElement}, kept in its `class` attribute. */
class LightClassList {
  constructor(private readonly element: LightElement) {}
  contains(token: string): boolean {
    return (this.element.getAttribute('class') ?? '').split(/\s+/).includes(token);
  }
  add(token: string): void {
    if (this.contains(token)) return;
    const current = (this.element.getAttribute('class') ?? '').trim();
    this.element.setAttribute('class', current ? `${current} ${token}` : token);
  }
}

export class LightElement extends LightNode implements ContentElement {
  readonly nodeType = ELEMENT_NODE;
  first: LightNode | null = null;
  last: LightNode | null = null;

  /** `tagName` is upper case, as in an HTML DOM; attribute names are lower case. */
  constructor(
    readonly tagName: string,
    readonly attributes: Record<string, string>,
  ) {
    super();
  }

  override get firstChild(): LightNode | null {
    return this.first;
  }
  override get lastChild(): LightNode | null {
    return this.last;
  }
  get firstElementChild(): LightElement | null {
    let node = this.first;
    while (node && !(node instanceof LightElement)) node = node.next;
    return node;
  }
  get lastElementChild(): LightElement | null {
    let node = this.last;
    while (node && !(node instanceof LightElement)) node = node.prev;
    return node;
  }
  get nextElementSibling(): LightElement | null {
    let node = this.next;
    while (node && !(node instanceof LightElement)) node = node.next;
    return node;
  }
  get previousElementSibling(): LightElement | null {
    let node = this.prev;
    while (node && !(node instanceof LightElement)) node = node.prev;
    return node;
  }
  get childElementCount(): number {
    let count = 0;
    for (let node = this.first; node; node = node.next) if (node instanceof LightElement) count += 1;
    return count;
  }
  get classList(): LightClassList {
    return new LightClassList(this);
  }

  /** The text of every descendant, in order (iterative: pages can nest deeper than the stack). */
  get textContent(): string {
    let out = '';
    let node: LightNode | null = this.first;
    while (node) {
      if (node instanceof LightText) out += node.textContent;
      else if (node instanceof LightElement && node.first) {
        node = node.first;
        continue;
      }
      while (node && !node.next && node !== this) node = node.parent;
      if (!node || node === this) break;
      node = node.next;
    }
    return out;
  }
  set textContent(text: string) {
    for (let node = this.first; node; node = node.next) node.parent = null;
    this.first = null;
    this.last = null;
    if (text) this.append(new LightText(text));
  }

  getAttribute(name: string): string | null {
    return Object.hasOwn(this.attributes, name) ? this.attributes[name]! : null;
  }
  hasAttribute(name: string): boolean {
    return Object.hasOwn(this.attributes, name);
  }
  setAttribute(name: string, value: string): void {
    this.attributes[name] = value;
  }
  removeAttribute(name: string): void {
    delete this.attributes[name];
  }

  append(node: LightNode): void {
    node.parent = this;
    node.prev = this.last;
    node.next = null;
    if (this.last) this.last.next = node;
    else this.first = node;
    this.last = node;
  }

  remove(): void {
    const parent = this.parent;
    if (!parent) return;
    if (this.prev) this.prev.next = this.next;
    else parent.first = this.next;
    if (this.next) this.next.prev = this.prev;
    else parent.last = this.prev;
    this.parent = null;
    this.prev = null;
    this.next = null;
  }
}

/** A parsed page: its top-level nodes under a nameless root. */
export class LightDocument implements ContentDocument {
  constructor(readonly root: LightElement) {}

  /** The first top-level element (for a whole page, `<html>`). */
  get documentElement(): LightElement | null {
    return this.root.firstElementChild;
  }

  get head(): LightElement | null {
    return childNamed(this.documentElement, 'HEAD');
  }

  get body(): LightElement | null {
    return childNamed(this.documentElement, 'BODY');
  }
}

function childNamed(parent: LightElement | null, tag: string): LightElement | null {
  for (let child = parent?.firstElementChild ?? null; child; child = child.nextElementSibling)
    if (child.tagName === tag) return child;
  return null;
}

/**
 * Upper-case tag names by the tokenizer's lower-case ones: one string for
 * every `<div>` of every page instead of a new one per element (its hash is
 * computed once for the walkers' set lookups). Bounded: a page can invent
 * any number of tag names.
 */
const UPPER_CASE_NAMES = new Map<string, string>();
const MAX_CACHED_NAMES = 1024;

/**
 * Parses HTML into a light tree: entities decoded, tag and attribute names
 * lower-cased by the tokenizer (tags stored upper case), comments,
 * doctype and processing instructions dropped, adjacent text merged, line
 * breaks LF ({@link normalizeNewlines}).
 */
export function parseLightDocument(html: string): LightDocument {
  const builder = new TreeBuilder();
  new Parser(builder, { decodeEntities: true }).end(normalizeNewlines(html));
  return new LightDocument(builder.root);
}

/**
 * The parser's handler that builds the tree: methods rather than callbacks
 * made afresh for every page, which V8 compiled again for each new closure
 * that ran hot (see `PageScan` in page-metadata.ts).
 */
class TreeBuilder {
  readonly root = new LightElement('#ROOT', {});
  private current = this.root;

  onopentag(name: string, attributes: Record<string, string>): void {
    let tagName = UPPER_CASE_NAMES.get(name);
    if (tagName === undefined) {
      tagName = name.toUpperCase();
      if (UPPER_CASE_NAMES.size < MAX_CACHED_NAMES) UPPER_CASE_NAMES.set(name, tagName);
    }
    const element = new LightElement(tagName, attributes);
    this.current.append(element);
    this.current = element;
  }

  ontext(text: string): void {
    const last = this.current.last;
    if (last instanceof LightText) last.textContent += text;
    else this.current.append(new LightText(text));
  }

  onclosetag(): void {
    if (this.current.parent) this.current = this.current.parent;
  }
}

const VOID = new Set([
  'AREA',
  'BASE',
  'BR',
  'COL',
  'EMBED',
  'HR',
  'IMG',
  'INPUT',
  'LINK',
  'META',
  'SOURCE',
  'TRACK',
  'WBR',
]);
const RAW_TEXT = new Set(['SCRIPT', 'STYLE']);

const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/** The HTML of an element's children (its `innerHTML`), tag names in lower case. */
export function innerHtml(element: LightElement): string {
  let out = '';
  const write = (node: LightNode, raw: boolean) => {
    if (node instanceof LightText) {
      out += raw ? node.textContent : escapeText(node.textContent);
      return;
    }
    const el = node as LightElement;
    const tag = el.tagName.toLowerCase();
    out += `<${tag}`;
    for (const [name, value] of Object.entries(el.attributes)) out += ` ${name}="${escapeAttribute(value)}"`;
    out += '>';
    if (VOID.has(el.tagName)) return;
    const childRaw = RAW_TEXT.has(el.tagName);
    for (let child = el.first; child; child = child.next) write(child, childRaw);
    out += `</${tag}>`;
  };
  for (let child = element.first; child; child = child.next) write(child, false);
  return out;
}
