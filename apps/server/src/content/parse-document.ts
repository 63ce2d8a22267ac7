import { parseHTML } from '../linkedom.js';
import { normalizeNewlines } from './normalize-newlines.js';

/** The DOM document type linkedom produces (structurally a DOM `Document`). */
export type HtmlDocument = Document;

/**
 * Parses HTML into a linkedom document with a usable `<html>`, `<head>` and
 * `<body>`. linkedom does not run the HTML tree-construction fix-ups a
 * browser does: a fragment without `<html>` gets its first element as the root, and
 * content outside an explicit `<body>` (or in a second `<body>`) is left
 * beside it. Both are repaired here so that `document.body` holds the page,
 * and line breaks are LF as in a browser ({@link normalizeNewlines}).
 */
export function parseHtmlDocument(source: string): HtmlDocument {
  const html = normalizeNewlines(source);
  let document = parseHTML(html).document as unknown as HtmlDocument;
  // Without an <html> element linkedom makes the first element the root.
  if (document.documentElement?.tagName.toUpperCase() !== 'HTML') {
    document = parseHTML(`<!doctype html><html><head></head><body>${html}</body></html>`)
      .document as unknown as HtmlDocument;
  }
  gatherIntoBody(document);
  return document;
}

/** Elements that only mean something in `<head>`. */
const METADATA_TAGS = new Set(['TITLE', 'META', 'LINK', 'BASE']);

const HEAD_ONLY = new Set(['TITLE', 'META', 'LINK', 'BASE', 'STYLE', 'SCRIPT', 'NOSCRIPT', 'TEMPLATE']);

/** Moves stray children of `<html>` into the (first) body, keeping their order. */
function gatherIntoBody(document: HtmlDocument): void {
  const root = document.documentElement;
  if (!root) return;
  let body = document.body as HTMLElement | null;
  let head = document.head as HTMLElement | null;
  if (!head) {
    head = document.createElement('head');
    root.insertBefore(head, root.firstChild);
  }
  if (!body) {
    body = document.createElement('body');
    root.appendChild(body);
  }
  let beforeBody = true;
  for (const child of Array.from(root.childNodes)) {
    if (child === head) continue;
    if (child === body) {
      beforeBody = false;
      continue;
    }
    const tag = (child as Element).tagName?.toUpperCase();
    if (tag === 'BODY') {
      // A second <body>: its children belong to the first one.
      for (const grandChild of Array.from(child.childNodes)) body.appendChild(grandChild);
      child.remove();
    } else if (tag === 'HEAD') {
      for (const grandChild of Array.from(child.childNodes)) head.appendChild(grandChild);
      child.remove();
    } else if (beforeBody && tag && HEAD_ONLY.has(tag)) {
      head.appendChild(child);
    } else if (beforeBody) {
      body.insertBefore(child, body.firstChild);
    } else {
      body.appendChild(child);
    }
  }
  // A document written without <head> (`<title>T</title><p>…`) has its
  // metadata at the top of the body; it belongs in the head.
  for (const child of Array.from(body.children)) {
    if (METADATA_TAGS.has(child.tagName.toUpperCase())) head.appendChild(child);
  }
}
