/**
 * The sampled fidelity check of the docs bench: every block of text that
 * Readability keeps on a page (paragraphs, list items, code blocks, table
 * cells, definitions, headings) must be found, word for word and in order,
 * in the Markdown the service produced for that page.
 */
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';

const BLOCKS = 'p, pre, li, dt, dd, th, td, h1, h2, h3, h4, h5, h6, blockquote';

/**
 * The letters and digits of a text, lower-cased, with nothing between them:
 * punctuation, Markdown syntax and spacing drop out (`<em>x</em><sup>2</sup>`
 * reads `x2` in the page and `*x*2` in Markdown; both are `x2` here).
 */
function words(text: string): string {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join('');
}

/** Markdown without link and image targets (`[text](url)` → `text`), whose words are not the page's text. */
function markdownWords(markdown: string): string {
  return words(
    markdown.replace(/\]\((?:[^()\s]|\([^()]*\))*(?:\s+"[^"]*")?\)/g, ']').replace(/<https?:[^>]*>/g, ''),
  );
}

/** The text blocks Readability keeps on a page (each block's own words; nested blocks are checked on their own). */
export function readabilityBlocks(html: string, url: string): string[] {
  const { document } = parseHTML(html);
  // Readability resolves links against the document's URL; linkedom's documents have none.
  Object.defineProperty(document, 'documentURI', { value: url });
  Object.defineProperty(document, 'baseURI', { value: url });
  const article = new Readability(document as unknown as Document).parse();
  if (!article?.content) return [];
  const { document: kept } = parseHTML(`<!doctype html><html><body>${article.content}</body></html>`);
  const blocks: string[] = [];
  for (const element of Array.from(kept.querySelectorAll(BLOCKS))) {
    // A block holding other blocks (a list item with a nested list) is checked through them.
    if (element.querySelector(BLOCKS)) continue;
    const text = words(element.textContent ?? '');
    if (text) blocks.push(text);
  }
  return blocks;
}

/**
 * The letters of the content the page itself marks as its main content
 * (`<main>`, `role="main"`), or null when it marks none: a block Readability
 * kept from outside it (a site footer) is chrome by the page's own account.
 */
export function markedContentWords(html: string): string | null {
  const { document } = parseHTML(html);
  const marked = document.querySelector('main, [role="main"]');
  return marked ? words(marked.textContent ?? '') : null;
}

/** The blocks of `blocks` whose letters and digits do not appear in `markdown` (in order, contiguously). */
export function missingBlocks(blocks: readonly string[], markdown: string): string[] {
  const haystack = markdownWords(markdown);
  return blocks.filter((block) => !haystack.includes(block));
}
