/**
 * The sampled fidelity check of the docs bench: every block of text that
 * Readability keeps on a page (paragraphs, list items, code blocks, table
 * cells, definitions, headings) must be found, word for word and in order,
 * in the Markdown the service produced for that page. One kind of block is
 * set apart rather than counted (see {@link KeptBlock.chrome}): what
 * Readability keeps only after turning its own chrome filter off, from
 * outside the content the page marks as its main content.
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

/** Where the check marks, before Readability runs, the elements its chrome filter removes outside the marked content. */
const CHROME = 'data-paragraph-check-chrome';

/** A block of text Readability kept: its words as Readability left them, and as the page has them. */
export interface KeptBlock {
  kept: string;
  page: string;
  /**
   * Whether the block lies outside the content the page marks as its main
   * content (`<main>`, `role="main"`), inside an element that Readability's
   * own chrome filter removes (see {@link readabilityChrome}). Readability
   * keeps such a block only when its filtered pass found under 500
   * characters (its `charThreshold`) and it ran again with the filter off
   * (on Sphinx's short index pages, the site footer `<div class="footer">`).
   * The page and Readability's first pass both say it is not content, and
   * the converter, taking the marked content, leaves it out (as Firecrawl's
   * `onlyMainContent` removes `footer`, `.footer`, `#footer` and
   * `[role=contentinfo]`): it is reported apart, not counted as lost.
   * Always false on a page that marks no content.
   */
  chrome: boolean;
}

/** Readability 0.6's own patterns, read from it rather than copied (they are on its prototype, not in its types). */
const READABILITY_RULES = Readability.prototype as unknown as {
  REGEXPS: { unlikelyCandidates: RegExp; okMaybeItsACandidate: RegExp };
  UNLIKELY_ROLES: string[];
};

/**
 * Whether Readability's filtered first pass removes `element` as chrome
 * (`_grabArticle` with `FLAG_STRIP_UNLIKELYS`): its class and id read as
 * chrome (`footer`, `sidebar`, `menu`, …) and not also as content, outside
 * tables and code, or its ARIA role is navigation-like.
 */
function readabilityChrome(element: Element): boolean {
  const tag = element.tagName.toUpperCase();
  if (tag === 'BODY' || tag === 'A') return false;
  const role = element.getAttribute('role');
  if (role && READABILITY_RULES.UNLIKELY_ROLES.includes(role)) return true;
  const match = `${element.getAttribute('class') ?? ''} ${element.getAttribute('id') ?? ''}`;
  const { unlikelyCandidates, okMaybeItsACandidate } = READABILITY_RULES.REGEXPS;
  return (
    unlikelyCandidates.test(match) &&
    !okMaybeItsACandidate.test(match) &&
    !element.parentElement?.closest('table, code')
  );
}

/** The words of the page's marked content and of each chrome element outside it, for blocks Readability made itself. */
interface ChromeWords {
  marked: string;
  chrome: string[];
}

/**
 * Marks (with {@link CHROME}) every element that lies outside the page's
 * marked content, neither inside it nor around it, and inside or at an
 * element Readability's chrome filter removes, and returns the words of
 * those elements and of the marked content. Null on a page that marks no
 * content.
 */
function markChromeOutsideMarkedContent(document: Document): ChromeWords | null {
  const marked = document.querySelector('main, [role="main"]');
  if (!marked || !document.body) return null;
  const found: ChromeWords = { marked: words(marked.textContent ?? ''), chrome: [] };
  const around = new Set<Element>();
  for (let element = marked.parentElement; element; element = element.parentElement) around.add(element);
  const stack: Element[] = Array.from(document.body.children);
  while (stack.length > 0) {
    const element = stack.pop()!;
    if (element === marked) continue;
    if (!around.has(element) && readabilityChrome(element)) {
      found.chrome.push(words(element.textContent ?? ''));
      element.setAttribute(CHROME, '');
      for (const inner of Array.from(element.querySelectorAll('*'))) inner.setAttribute(CHROME, '');
      continue;
    }
    stack.push(...Array.from(element.children));
  }
  return found;
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
  const chrome = markChromeOutsideMarkedContent(document as unknown as Document);
  const article = new Readability(document as unknown as Document).parse();
  if (!article?.content) return [];
  const { document: kept } = parseHTML(`<!doctype html><html><body>${article.content}</body></html>`);
  const blocks: KeptBlock[] = [];
  for (const element of Array.from(kept.querySelectorAll(BLOCKS))) {
    // A block holding other blocks (a list item with a nested list) is checked through them.
    if (element.querySelector(BLOCKS)) continue;
    const text = words(element.textContent ?? '');
    // A block Readability emptied kept nothing to lose.
    if (!text) continue;
    const page = element.getAttribute(PAGE_WORDS);
    blocks.push({
      kept: text,
      page: page ?? text,
      // A block Readability made itself (loose text it wrapped in a `<p>`, which then took the
      // place of its `<div>`, attributes and all) is known by its words: a chrome element's, not the content's.
      chrome:
        chrome !== null &&
        (element.closest(`[${CHROME}]`) !== null ||
          (page === null && !chrome.marked.includes(text) && chrome.chrome.some((w) => w.includes(text)))),
    });
  }
  return blocks;
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
