import {
  type ContentElement,
  innerHtml,
  type LightElement,
  parseLightDocument,
  tagNameOf,
} from './light-dom.js';
import { extractMainContent, hasText, markedContent, removeNoise } from './main-content.js';
import { elementToMarkdown } from './markdown.js';
import { documentBaseUrl, type PageFacts, scanPage } from './page-metadata.js';
import { parseHtmlDocument } from './parse-document.js';
import { pickMainContent, shortPageContent } from './pick-content.js';
import { elementToText } from './plain-text.js';
import type { ConvertedPage } from './types.js';

/** Deeper pages get their plain text as Markdown. */
const MARKDOWN_MAX_DEPTH = 500;

/**
 * Whether Markdown has a level-1 ATX heading outside its fenced code blocks: a
 * `# comment` line of a shell or config example is code, not the page's heading.
 */
function hasTopHeading(markdown: string): boolean {
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== null) {
      // A closing fence: the opening's character, at least as long, nothing after it.
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker)
        fence = null;
    } else if (marker) fence = marker;
    else if (/^ {0,3}# /.test(line)) return true;
  }
  return false;
}

/** Descends through `<div>`s that hold nothing but one element (Readability's wrappers). */
function unwrapSingleDivs(element: ContentElement): ContentElement {
  let current = element;
  for (let level = 0; level < 20; level += 1) {
    const child = current.firstElementChild;
    if (!child || current.childElementCount !== 1 || tagNameOf(child) !== 'DIV') return current;
    for (let node = current.firstChild; node; node = node.nextSibling)
      if (node.nodeType === 3 && node.textContent?.trim()) return current;
    current = child;
  }
  return current;
}

/**
 * linkedom serialises elements created by script (`createElement('DIV')`,
 * as Readability does) in the case they were created in; HTML tag names
 * are written in lower case everywhere else.
 */
function lowerCaseTagNames(html: string): string {
  return html.replace(
    /<(\/?)([A-Z][A-Z0-9]*)(?=[\s>/])/g,
    (_m, slash: string, name: string) => `<${slash}${name.toLowerCase()}`,
  );
}

/**
 * Converts a fetched HTML page into every format the API serves. Title,
 * canonical URL, links and headings come from the whole page; markdown,
 * html and text from its main content. The page is parsed once into a
 * light tree and every format comes from that one parse: the content is the
 * element the page marks (`<main>`, `role="main"`), else the one the picker
 * chooses (`pick-content.ts`: Readability's scoring rules on the light
 * tree). linkedom and Readability run only as the fallback: a page without
 * an `<html>` and `<body>` to go by (a fragment), nesting too deep, or
 * marking an element with too little text. Relative URLs are resolved
 * against `<base href>` or `pageUrl`. Never throws on malformed HTML. With
 * `html: false` the content is not serialised back to HTML (`html` is empty).
 */
export function convertPage(html: string, pageUrl: string, options: { html?: boolean } = {}): ConvertedPage {
  return convertLightPage(html, pageUrl, options) ?? convertWithReadability(html, pageUrl, options);
}

/**
 * The one-parse path: a light tree, scanned once, its content (the marked
 * element, else the picker's choice) cleaned and written out. Null when
 * the page has no `<html>` and `<body>`, nests too deep for the recursive
 * writers, or has no content with enough text to go by: then linkedom and
 * Readability decide.
 */
function convertLightPage(html: string, pageUrl: string, options: { html?: boolean }): ConvertedPage | null {
  const document = parseLightDocument(html);
  const body = document.body;
  if (document.documentElement?.tagName !== 'HTML' || !body) return null;
  const base = documentBaseUrl(document, pageUrl);
  const facts = scanPage(document, base);
  if (facts.maxDepth > MARKDOWN_MAX_DEPTH) return null;
  // Scanning made the links absolute: in-page links are this URL with a fragment.
  const linkBase = base?.href ?? pageUrl;
  let content: ContentElement | null = null;
  if (facts.contentRoot && markedContent(facts.contentRoot, linkBase)) content = facts.contentRoot;
  else if (!facts.contentRoot) {
    content = pickMainContent(body, linkBase) ?? shortPageContent(body);
    removeNoise(content, linkBase);
    if (!hasText(content, 1)) content = null;
  }
  if (!content) return null;
  const root = unwrapSingleDivs(content) as LightElement;
  return formats(root, facts, options.html === false ? '' : innerHtml(root).trim(), undefined);
}

/** Every format from the content element and the page facts. */
function formats(
  root: ContentElement,
  facts: PageFacts,
  html: string,
  article: ConvertedPage['article'],
): ConvertedPage {
  const text = elementToText(root);
  let markdown: string;
  try {
    // The Markdown writer recurses per nesting level; a hostile page would overflow the stack.
    markdown = facts.maxDepth > MARKDOWN_MAX_DEPTH ? text : elementToMarkdown(root);
  } catch {
    markdown = text; // the converter choked: plain text is still Markdown
  }
  // Readability drops the heading that repeats the title; readers of the Markdown expect it on top.
  const heading = facts.firstHeading ?? facts.title;
  if (heading && !hasTopHeading(markdown)) markdown = `# ${heading}\n\n${markdown}`;
  const page: ConvertedPage = {
    title: facts.title,
    markdown,
    html,
    text,
    links: facts.links,
    canonicalUrl: facts.canonicalUrl,
    headings: facts.headings,
  };
  if (article !== undefined) page.article = article;
  return page;
}

/** The linkedom path (the fallback; every page before the light tree; exported to compare the two): Readability picks the content unless the page marks it. */
export function convertWithReadability(
  html: string,
  pageUrl: string,
  options: { html?: boolean },
): ConvertedPage {
  const document = parseHtmlDocument(html);
  const base = documentBaseUrl(document, pageUrl);
  const facts = scanPage(document, base);
  const main = extractMainContent(document, {
    keepClasses: facts.codeLanguageClasses,
    contentRoot: facts.contentRoot,
    elementCount: facts.elementCount,
    maxDepth: facts.maxDepth,
    pageUrl: base?.href ?? pageUrl,
    reparse: () => {
      const fresh = parseHtmlDocument(html);
      scanPage(fresh, base);
      return fresh;
    },
  });
  // Readability's wrapper <div>s (and the fallback's <main>/<body>) are not
  // content: every format below is built from their children.
  const root = unwrapSingleDivs(main.element) as Element;
  return formats(
    root,
    facts,
    options.html === false ? '' : lowerCaseTagNames(root.innerHTML.trim()),
    main.article,
  );
}
