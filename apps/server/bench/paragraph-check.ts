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

/**
 * At each place in Markdown, the first of: an escaped character, a code span
 * or fenced block (a run of backticks to the next run of as many), a link or
 * image target (`](url "title")`), an autolink (`<https://…>`).
 */
const MARKDOWN_TOKENS =
  /\\[\s\S]|(`+)[\s\S]*?[^`]\1(?!`)|\]\((?:[^()\s]|\([^()]*\))*(?:\s+"[^"]*")?\)|<https?:[^>]*>/g;

/**
 * Markdown without link and image targets (`[text](url)` → `text`), whose
 * words are not the page's text. Code is left as it is: `[.](?!bat$)` in a
 * code span is a regular expression the page shows, not a link (its words
 * `bat` are the page's), and prose never holds an unescaped `](`.
 */
export function markdownWords(markdown: string): string {
  return words(
    markdown.replace(MARKDOWN_TOKENS, (token) =>
      token.startsWith(']') ? ']' : token.startsWith('<') ? '' : token,
    ),
  );
}

/** Where a block's words as the page has them travel through Readability (it keeps `data-` attributes). */
const PAGE_WORDS = 'data-paragraph-check-words';

/** A block of text Readability kept: its words as Readability left them, and as the page has them. */
export interface KeptBlock {
  kept: string;
  page: string;
}

/**
 * The text blocks Readability keeps on a page (each block's own words;
 * nested blocks are checked on their own), each also read as the page has
 * it.
 *
 * Why both: Readability also removes inline elements whose class reads like
 * chrome to it from inside the paragraphs it keeps (Sphinx's
 * `<span class="mailheader">Content-Type</span>` matches its `header`,
 * `<span class="menuselection">` its `menu`), so its block "also add a
 * header" is not the page's "also add a Content-Type header", and a
 * converter that keeps the page's words would be counted as losing the
 * paragraph. Each block is tagged with its own words before Readability
 * runs; a block Readability made itself (a `<div>` turned into a `<p>`,
 * loose text wrapped) has no tag and only its kept words.
 */
export function readabilityBlocks(html: string, url: string): KeptBlock[] {
  const { document } = parseHTML(html);
  // Readability resolves links against the document's URL; linkedom's documents have none.
  Object.defineProperty(document, 'documentURI', { value: url });
  Object.defineProperty(document, 'baseURI', { value: url });
  for (const element of Array.from(document.querySelectorAll(BLOCKS)))
    element.setAttribute(PAGE_WORDS, words(element.textContent ?? ''));
  const article = new Readability(document as unknown as Document).parse();
  if (!article?.content) return [];
  const { document: kept } = parseHTML(`<!doctype html><html><body>${article.content}</body></html>`);
  const blocks: KeptBlock[] = [];
  for (const element of Array.from(kept.querySelectorAll(BLOCKS))) {
    // A block holding other blocks (a list item with a nested list) is checked through them.
    if (element.querySelector(BLOCKS)) continue;
    const text = words(element.textContent ?? '');
    // A block Readability emptied kept nothing to lose.
    if (text) blocks.push({ kept: text, page: element.getAttribute(PAGE_WORDS) ?? text });
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

/**
 * The blocks of `blocks` lost in `markdown`: neither their kept words nor
 * the page's words appear in it (in order, contiguously). Found as the page
 * has it, the block lost nothing of the page; found as Readability left it,
 * it lost nothing Readability kept (words Readability and the converter
 * both dropped, a hidden element say, are no loss against Readability).
 */
export function missingBlocks(blocks: readonly KeptBlock[], markdown: string): KeptBlock[] {
  const haystack = markdownWords(markdown);
  return blocks.filter((block) => !haystack.includes(block.kept) && !haystack.includes(block.page));
}
