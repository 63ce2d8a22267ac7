import { extractMainContent } from './main-content.js';
import { elementToMarkdown } from './markdown.js';
import { documentBaseUrl, scanPage } from './page-metadata.js';
import { parseHtmlDocument } from './parse-document.js';
import { elementToText } from './plain-text.js';
import type { ConvertedPage } from './types.js';

/** Deeper pages get their plain text as Markdown. */
const MARKDOWN_MAX_DEPTH = 500;

/** Descends through `<div>`s that hold nothing but one element (Readability's wrappers). */
function unwrapSingleDivs(element: Element): Element {
  let current = element;
  for (let level = 0; level < 20; level += 1) {
    const child = current.firstElementChild;
    if (!child || current.childElementCount !== 1 || child.tagName.toUpperCase() !== 'DIV') return current;
    const strayText = Array.from(current.childNodes).some((n) => n.nodeType === 3 && n.textContent?.trim());
    if (strayText) return current;
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
 * html and text from its main content (Readability, with a
 * `<main>`/`<article>`/`<body>` fallback). Relative URLs are resolved
 * against `<base href>` or `pageUrl`. Never throws on malformed HTML. With
 * `html: false` the content is not serialised back to HTML (`html` is empty).
 */
export function convertPage(html: string, pageUrl: string, options: { html?: boolean } = {}): ConvertedPage {
  const document = parseHtmlDocument(html);
  const base = documentBaseUrl(document, pageUrl);
  const facts = scanPage(document, base);
  const main = extractMainContent(document, {
    keepClasses: facts.codeLanguageClasses,
    contentRoot: facts.contentRoot,
    elementCount: facts.elementCount,
    maxDepth: facts.maxDepth,
    reparse: () => {
      const fresh = parseHtmlDocument(html);
      scanPage(fresh, base);
      return fresh;
    },
  });
  // Readability's wrapper <div>s (and the fallback's <main>/<body>) are not
  // content: every format below is built from their children.
  const root = unwrapSingleDivs(main.element);
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
  if (heading && !/^# /m.test(markdown)) markdown = `# ${heading}\n\n${markdown}`;
  return {
    title: facts.title,
    markdown,
    html: options.html === false ? '' : lowerCaseTagNames(root.innerHTML.trim()),
    text,
    links: facts.links,
    canonicalUrl: facts.canonicalUrl,
    headings: facts.headings,
    article: main.article,
  };
}
