import type { CheerioAPI } from 'cheerio';
import type { DomIndex } from './dom-index.js';
import type { FactNode } from './page-facts.js';
import { segments } from './read-document-title.js';
import { attrOf, closestWhere, collapse, type DomNode, isWithin, tagName } from './text-utils.js';

/** Marks of a byline element: `rel=author`, `itemprop=author`, or a class or id naming the author or byline. */
const BYLINE_MARK = /author|byline|writtenby/i;
const hasWord = (value: string | undefined, word: string) => (value ?? '').split(/\s+/).includes(word);

function isBylineMarked(el: DomNode): boolean {
  return (
    hasWord(attrOf(el, 'rel'), 'author') ||
    hasWord(attrOf(el, 'itemprop'), 'author') ||
    BYLINE_MARK.test(classAndId(el))
  );
}
const LINE_TAGS = new Set(['p', 'div', 'span', 'li', 'address']);
const MAIN_TAGS = new Set(['article', 'main']);
/** Class/id words of page parts that hold other people's names: comments, related stories, share bars, footers. */
const ELSEWHERE =
  /comment|sidebar|related|share|social|footer|newsletter|promo|recirc|widget|menu|breadcrumb|popup|modal|disqus|reply|replies|more-from|trending|popular/i;
/** Class/id words that keep a container in the article even when it also names one of the above (Readability's rule). */
const ARTICLE_PART = /article|body|content|main|post|entry|story|column/i;
/** Containers that are never the article's header. */
const ELSEWHERE_TAGS = new Set([
  'nav',
  'footer',
  'aside',
  'form',
  'button',
  'select',
  'option',
  'script',
  'style',
]);
/** "By Jane Doe", "Written by …", "von …", "par …", "por …": a line that is a byline by its words. */
const BY_LINE = /^(?:by|written by|words by|von|par|por|door|av)\s+\p{Lu}/iu;
/** A byline is short (Readability uses the same bound). */
const MAX_BYLINE = 100;
/** Characters of text after (and before) the headline within which a byline is "near" it: a dek, a kicker, a date. */
const NEAR_AFTER = 600;
const NEAR_BEFORE = 150;
const MAX_BYLINES = 5;

/**
 * Where each element of the body starts and ends, counted in characters of
 * text before it (document order): how far apart two elements are for a
 * reader, whatever the markup between them.
 */
function textPositions(body: DomNode | undefined): Map<DomNode, { start: number; end: number }> {
  const positions = new Map<DomNode, { start: number; end: number }>();
  let offset = 0;
  const walk = (n: DomNode) => {
    const x = n as { type?: string; data?: string; children?: DomNode[] };
    if (x.type === 'text') {
      offset += (x.data ?? '').trim().length;
      return;
    }
    if (x.type !== 'tag') return;
    const start = offset;
    // Share bars, menus and buttons are not text a reader passes between a headline and its byline.
    const skipped = offset;
    for (const child of x.children ?? []) walk(child);
    if (notReading(n)) offset = skipped;
    positions.set(n, { start, end: offset });
  };
  if (body) for (const child of (body as { children?: DomNode[] }).children ?? []) walk(child);
  return positions;
}

/** The page's headline element, and whether the page confirms it (by its stated title, or by having no other `<h1>`). */
export interface Headline {
  element: DomNode;
  confirmed: boolean;
}

/** Lower-case words of a text, letters and digits only. */
const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * Whether an `<h1>`'s text is the site's name as the page's stated title puts it: the last of the
 * title's parts ("Zlib | Node.js Documentation" with `<h1>Node.js Documentation</h1>` in the page
 * header). Sites put their own name after the headline, and a header's logo or name is often an
 * `<h1>` of its own; such an `<h1>` is made entirely of title words, so without this it would be
 * taken for the headline the title confirms, and beat the title itself.
 */
function isTitleSiteName(h1Words: string[], statedTitles: string[]): boolean {
  const own = h1Words.join(' ');
  if (!own) return false;
  return statedTitles.some((title) => {
    const parts = segments(collapse(title));
    if (parts.length < 2) return false;
    const last = wordsOf(parts[parts.length - 1]!.text).join(' ');
    const first = wordsOf(parts[0]!.text).join(' ');
    return last === own && first !== own;
  });
}

/**
 * The page's headline element: of its (first ten) `<h1>`s, the one whose
 * words overlap most with the page's stated title (a site's logo is often an
 * `<h1>` too); failing that, the first in its `<article>`/`<main>`, else the
 * first — confirmed only when it is the page's one `<h1>`. An `<h1>` that is
 * the site's name as the title states it (its last part) is taken only when
 * there is no other, and never as confirmed.
 */
export function findHeadline($: CheerioAPI, index: DomIndex, statedTitles: string[]): Headline | undefined {
  const all = index.tag('h1').slice(0, 10);
  if (all.length === 0) return undefined;
  const siteNames = all.filter((el) => isTitleSiteName(wordsOf(collapse($(el).text())), statedTitles));
  const h1s = all.filter((el) => !siteNames.includes(el));
  if (h1s.length === 0) return { element: all[0]!, confirmed: false };
  const words = new Set(statedTitles.flatMap((t) => wordsOf(t)));
  // Most title words matched, among the <h1>s mostly made of title words ("Salon" matches too, with one word).
  let best: { el: DomNode; matched: number } | undefined;
  for (const el of h1s) {
    const own = wordsOf(collapse($(el).text()));
    const matched = own.filter((w) => words.has(w)).length;
    if (matched * 2 >= own.length && matched > (best?.matched ?? 0)) best = { el, matched };
  }
  if (best) return { element: best.el, confirmed: true };
  const inMain = (n: DomNode) => MAIN_TAGS.has(tagName(n)) || attrOf(n, 'role') === 'main';
  const first = h1s.find((h) => closestWhere(h, inMain, true)) ?? h1s[0];
  return first ? { element: first, confirmed: all.length === 1 } : undefined;
}

function notReading(node: DomNode): boolean {
  const tag = tagName(node);
  if (ELSEWHERE_TAGS.has(tag)) return true;
  const marks = classAndId(node);
  return ELSEWHERE.test(marks) && !ARTICLE_PART.test(marks);
}

function classAndId(node: DomNode): string {
  const attribs = (node as { attribs?: Record<string, string> }).attribs ?? {};
  return `${attribs.class ?? ''} ${attribs.id ?? ''}`;
}

function isHidden(node: DomNode): boolean {
  const attribs = (node as { attribs?: Record<string, string> }).attribs ?? {};
  if ('hidden' in attribs || attribs['aria-hidden'] === 'true') return true;
  return /(?:display\s*:\s*none|visibility\s*:\s*hidden)/i.test(attribs.style ?? '');
}

/** Whether an element sits in a part of the page that is not the article (or is hidden). */
function elsewhere(node: DomNode): boolean {
  for (let n: DomNode | null = node; n; n = (n as { parent?: DomNode | null }).parent ?? null) {
    const tag = tagName(n);
    if (!tag) continue;
    if (tag === 'body' || tag === 'html') break;
    if (ELSEWHERE_TAGS.has(tag) || isHidden(n)) return true;
    const marks = classAndId(n);
    if (ELSEWHERE.test(marks) && !ARTICLE_PART.test(marks)) return true;
  }
  return false;
}

/**
 * Reads the page's bylines into `node` as `byline` entries: elements marked
 * as a byline (`rel=author`, `itemprop=author`, an author/byline class or
 * id) and short lines that read "By …", outside comments, related stories,
 * navigation and footers, 1–100 characters long (an `itemprop=name` inside
 * one is its name). A byline within a few elements of the page's headline
 * (`findHeadline`) is `byline-near` evidence, any other `byline-far`.
 * Call before anything removes elements.
 */
export function readBylines(
  $: CheerioAPI,
  index: DomIndex,
  node: FactNode,
  headline: DomNode | undefined,
): void {
  const at = textPositions(index.first('body') ?? $.root().get(0));
  const head = headline ? at.get(headline) : undefined;
  const isNear = (el: DomNode) => {
    const here = at.get(el);
    if (!head || !here) return false;
    if (here.start >= head.end) return here.start - head.end <= NEAR_AFTER;
    return here.end <= head.start && head.start - here.end <= NEAR_BEFORE;
  };

  const taken: DomNode[] = [];
  const within = (el: DomNode) => taken.some((t) => isWithin(el, t));
  const take = (el: DomNode, text: string) => {
    if (taken.length >= MAX_BYLINES) return;
    taken.push(el);
    node.entries.push({ key: 'byline', value: text, evidence: isNear(el) ? 'byline-near' : 'byline-far' });
  };

  for (const el of index.all) {
    if (!isBylineMarked(el) || tagName(el) === 'meta' || tagName(el) === 'link') continue;
    // A byline is short: a long element (an author's bio box) is not read at all.
    const span = at.get(el);
    if (span && span.end - span.start >= MAX_BYLINE * 2) continue;
    if (within(el) || elsewhere(el) || (headline && isWithin(headline, el))) continue;
    const $el = $(el);
    const name = $el.find('[itemprop~="name"]').first();
    const text = collapse((name.length > 0 ? name : $el).text());
    if (text.length === 0 || text.length >= MAX_BYLINE) continue;
    take(el, text);
  }

  if (!head) return;
  for (const el of index.all) {
    if (!LINE_TAGS.has(tagName(el)) || !isNear(el) || within(el) || elsewhere(el)) continue;
    const $el = $(el);
    if ($el.children('p, div, li, ul, ol, h1, h2, h3').length > 0) continue;
    const text = collapse($el.text());
    if (text.length < MAX_BYLINE && BY_LINE.test(text)) take(el, text);
  }
}
