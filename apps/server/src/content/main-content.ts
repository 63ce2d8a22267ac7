import { Readability } from '@mozilla/readability';
import { type ArticleMetadata, articleMetadata, READABILITY_LIMITS } from '../readability.js';
import { type ContentElement, type ContentNode, ELEMENT_NODE, TEXT_NODE, tagNameOf } from './light-dom.js';
import type { HtmlDocument } from './parse-document.js';
import { svgShowsText } from './svg-text.js';

/** Below this many characters of text, Readability's pick is compared with the plain fallback. */
const SHORT_TEXT = 200;

/** Elements never part of a page's content. */
const NOISE_TAGS = new Set([
  'SCRIPT',
  'STYLE',
  'NOSCRIPT',
  'TEMPLATE',
  'IFRAME',
  'OBJECT',
  'EMBED',
  'CANVAS',
  'FORM',
  'BUTTON',
  'INPUT',
  'SELECT',
  'TEXTAREA',
  'DIALOG',
  'NAV',
  'FOOTER',
]);
const CONTENT_ROOTS = new Set(['MAIN', 'ARTICLE']);

/** An element whose text is mostly link text (a list of related links, not notes or footnotes). */
function linkDense(element: ContentElement): boolean {
  const total = textLength(element);
  if (total === 0) return true;
  let linked = 0;
  const stack: ContentElement[] = [element];
  while (stack.length > 0) {
    const current = stack.pop()!;
    for (let child = current.firstElementChild; child; child = child.nextElementSibling) {
      if (tagNameOf(child) === 'A') linked += textLength(child);
      else stack.push(child);
    }
  }
  return linked / total > 0.5;
}

/** The least number of entries that makes a `<nav>` of in-page links a table of contents. */
const CONTENTS_MIN_LINKS = 2;

/**
 * Whether `nav` is the page's own table of contents: at least
 * {@link CONTENTS_MIN_LINKS} links, every one into the page itself (a
 * fragment of `pageUrl`; scanning made links absolute). Breadcrumbs,
 * pagination and site menus lead to other pages.
 */
function inPageContents(nav: ContentElement, pageUrl: string): boolean {
  const prefix = `${pageUrl.split('#', 1)[0]}#`;
  let links = 0;
  const stack: ContentElement[] = [nav];
  while (stack.length > 0) {
    const current = stack.pop()!;
    for (let child = current.firstElementChild; child; child = child.nextElementSibling) {
      if (tagNameOf(child) === 'A') {
        const href = child.getAttribute('href');
        if (href === null) continue;
        if (!href.startsWith('#') && !href.startsWith(prefix)) return false;
        links += 1;
      }
      stack.push(child);
    }
  }
  return links >= CONTENTS_MIN_LINKS;
}

/**
 * Removes noise under `root` in one walk (cheaper than a CSS query over
 * linkedom): noise elements, inline SVGs that show no text (icons; a
 * diagram's labels are content: `svg-text.ts`), hidden ones, `<header>`s and `<aside>`s that
 * are not inside a `<main>`/`<article>` (site headers and sidebars), and
 * asides inside it that are mostly links (related links; footnotes and
 * notes stay). A `<nav>` inside a `<main>`/`<article>` whose links all lead
 * into the page (`pageUrl`, the URL its links resolve against) stays: it is
 * the page's table of contents (Sphinx's `.. contents::`), which Readability
 * keeps too; every other `<nav>` is navigation.
 */
export function removeNoise(root: ContentElement, pageUrl: string): void {
  const doomed: ContentElement[] = [];
  const stack: [ContentElement, boolean][] = [];
  const rootTag = tagNameOf(root);
  const rootInContent = CONTENT_ROOTS.has(rootTag) || root.getAttribute('role') === 'main';
  for (let child = root.firstElementChild; child; child = child.nextElementSibling)
    stack.push([child, rootInContent]);
  while (stack.length > 0) {
    const [element, inContent] = stack.pop()!;
    const tag = tagNameOf(element);
    if (
      (NOISE_TAGS.has(tag) && !(tag === 'NAV' && inContent && inPageContents(element, pageUrl))) ||
      element.hasAttribute('hidden') ||
      element.getAttribute('aria-hidden') === 'true' ||
      ((tag === 'HEADER' || tag === 'ASIDE') && !inContent) ||
      (tag === 'ASIDE' && linkDense(element))
    ) {
      doomed.push(element);
      continue;
    }
    if (tag === 'SVG') {
      // Kept whole when it shows text (its labels are written by the converters); its inside is no HTML.
      if (!svgShowsText(element)) doomed.push(element);
      continue;
    }
    // Children pushed here, not by a closure made per call (V8 compiled each new one that ran hot again).
    const childInContent = inContent || CONTENT_ROOTS.has(tag) || element.getAttribute('role') === 'main';
    for (let child = element.firstElementChild; child; child = child.nextElementSibling)
      stack.push([child, childInContent]);
  }
  for (const element of doomed) element.remove();
}

/** The main content picked from a page, how it was found, and Readability's metadata when it ran. */
export interface MainContent {
  element: ContentElement;
  source: 'marked' | 'readability' | 'fallback';
  /** Readability's metadata; absent when Readability did not run because the page marks its content. */
  article?: ArticleMetadata | null;
}

function textLength(element: ContentElement | null | undefined): number {
  return (element?.textContent ?? '').replace(/\s+/g, ' ').trim().length;
}

/**
 * The page's `<main>`, else its only `<article>`, else its `<body>`, with
 * navigation, footers, asides, scripts and form controls removed (and a
 * site `<header>` outside main/article too).
 */
export function fallbackContent(document: HtmlDocument, pageUrl: string): Element {
  const articles = document.getElementsByTagName('article');
  const root =
    document.querySelector('main, [role="main"]') ??
    (articles.length === 1 ? articles[0] : null) ??
    document.body ??
    document.documentElement;
  removeNoise(root, pageUrl);
  return root;
}

/**
 * Cleans the element a page marks as its content (`<main>`, `role="main"`)
 * and answers whether it holds enough text to be taken at its word: the
 * author says where the content is, and Readability's guess on
 * documentation keeps one section of a long page and drops link lists
 * (tables of contents), while costing more than the rest of the conversion.
 */
export function markedContent(contentRoot: ContentElement, pageUrl: string): boolean {
  removeNoise(contentRoot, pageUrl);
  return hasText(contentRoot, SHORT_TEXT);
}

/**
 * Whether `element`'s collapsed text is at least `length` characters:
 * counts non-space characters text node by text node and stops once there
 * are enough (the content of a long page is not copied into one string to
 * learn that it is long); exact otherwise.
 */
export function hasText(element: ContentElement, length: number): boolean {
  let count = 0;
  const stack: ContentNode[] = [element];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.nodeType === TEXT_NODE) {
      count += (node.textContent ?? '').replace(/\s+/g, '').length;
      if (count >= length) return true;
    } else if (node.nodeType === ELEMENT_NODE) {
      for (let child = node.lastChild; child; child = child.previousSibling) stack.push(child);
    }
  }
  return textLength(element) >= length;
}

/** How {@link extractMainContent} may work on a document. */
export interface MainContentOptions {
  /** Classes Readability must keep (code block languages). */
  keepClasses: string[];
  /** The page's `<main>` or `role="main"` element, if it has one: its author says where the content is. */
  contentRoot?: ContentElement | null;
  /** Elements in the document and their deepest nesting: too many or too deep and Readability is skipped. */
  elementCount: number;
  maxDepth: number;
  /** The URL the page's links resolve against (its `<base href>`, else its own URL). */
  pageUrl: string;
  /** A fresh, prepared copy of the page (Readability changes the one it reads). */
  reparse: () => HtmlDocument;
}

/**
 * Picks the main content: the page's `<main>`/`role="main"` when it marks
 * one that holds text, else Readability's pick (which changes `document`, so
 * read everything else from it first). When Readability finds nothing, or
 * only a little text (short pages, where its scoring is unreliable), the
 * page is parsed again by `reparse` and its cleaned `<main>`/`<article>`/
 * `<body>` is used instead, unless that holds no text at all. Pages with
 * more than `READABILITY_LIMITS.maxElements` elements or deeper than
 * `READABILITY_LIMITS.maxDepth` go straight to that fallback (see `src/readability.ts`).
 */
export function extractMainContent(document: HtmlDocument, options: MainContentOptions): MainContent {
  if (options.contentRoot && markedContent(options.contentRoot, options.pageUrl))
    return { element: options.contentRoot, source: 'marked' };
  if (
    options.elementCount > READABILITY_LIMITS.maxElements ||
    options.maxDepth > READABILITY_LIMITS.maxDepth
  ) {
    return { element: fallbackContent(document, options.pageUrl), source: 'fallback', article: null };
  }
  let picked: ContentElement | null = null;
  let metadata: ArticleMetadata | null = null;
  try {
    const article = new Readability(document, {
      // Hands back the content element itself rather than re-serialised HTML.
      serializer: (element: Node) => element as unknown as string,
      classesToPreserve: options.keepClasses,
    }).parse();
    picked = (article?.content as unknown as ContentElement | null | undefined) ?? null;
    if (article) metadata = articleMetadata(article);
  } catch {
    picked = null; // a DOM Readability cannot handle
  }
  const pickedLength = textLength(picked);
  if (picked && pickedLength >= SHORT_TEXT)
    return { element: picked, source: 'readability', article: metadata };
  // On a short page Readability's scoring is unreliable (it tends to keep
  // navigation and drop the heading); the plain cleaned <main>/<body> wins
  // unless it is empty.
  const fallback = fallbackContent(options.reparse(), options.pageUrl);
  if (!picked || textLength(fallback) > 0)
    return { element: fallback, source: 'fallback', article: metadata };
  return { element: picked, source: 'readability', article: metadata };
}
