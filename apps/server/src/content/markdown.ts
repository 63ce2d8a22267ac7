import { NodeHtmlMarkdown } from 'node-html-markdown';

const converter = new NodeHtmlMarkdown({
  bulletMarker: '-',
  codeBlockStyle: 'fenced',
  codeFence: '```',
  maxConsecutiveNewlines: 2,
  useInlineLinks: true,
  keepDataImages: false,
});

/** Elements that are only layout: their children can be converted one by one. */
const CONTAINERS = new Set([
  'DIV',
  'SECTION',
  'ARTICLE',
  'MAIN',
  'BODY',
  'HEADER',
  'FOOTER',
  'ASIDE',
  'CENTER',
]);
/** Phrasing elements, converted together with the text beside them. */
const INLINE = new Set([
  'A',
  'ABBR',
  'B',
  'BDI',
  'BDO',
  'BR',
  'CITE',
  'CODE',
  'DATA',
  'DEL',
  'DFN',
  'EM',
  'FONT',
  'I',
  'IMG',
  'INS',
  'KBD',
  'LABEL',
  'MARK',
  'Q',
  'S',
  'SAMP',
  'SMALL',
  'SPAN',
  'STRIKE',
  'STRONG',
  'SUB',
  'SUP',
  'TIME',
  'TT',
  'U',
  'VAR',
  'WBR',
]);
/** A container larger than this is split into its children rather than converted whole. */
const CHUNK_CHARS = 8_000;
/** Pieces are converted in batches of about this many characters of HTML. */
const BATCH_CHARS = 6_000;

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;

/**
 * Cuts an element's content into HTML pieces that convert independently:
 * each block child on its own, runs of inline content together, and large
 * layout containers split further. node-html-markdown's cost grows with the
 * square of the text converted at once (it re-copies its whole output on
 * every link or emphasis), so a page converted as one piece is ~10× slower.
 */
function chunksOf(root: Element, out: string[]): void {
  let inline = '';
  const flushInline = () => {
    if (inline.trim()) out.push(inline);
    inline = '';
  };
  for (const node of Array.from(root.childNodes)) {
    if (node.nodeType === TEXT_NODE) {
      inline += escapeText(node.textContent ?? '');
      continue;
    }
    if (node.nodeType !== ELEMENT_NODE) continue;
    const element = node as Element;
    const tag = element.tagName.toUpperCase();
    if (INLINE.has(tag)) {
      inline += element.outerHTML;
      continue;
    }
    flushInline();
    const html = element.outerHTML;
    if (CONTAINERS.has(tag) && html.length > CHUNK_CHARS) chunksOf(element, out);
    else out.push(html);
  }
  flushInline();
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Converts HTML to Markdown (GitHub flavour: fenced code with language, tables, `-` bullets). */
export function htmlToMarkdown(html: string): string {
  return converter.translate(html).trim();
}

/** Converts an element's content to Markdown, piece by piece (see {@link chunksOf}). */
export function elementToMarkdown(root: Element): string {
  const chunks: string[] = [];
  chunksOf(root, chunks);
  // Neighbouring small pieces are converted together: one call per piece
  // costs more than the (bounded) quadratic growth inside a batch.
  const parts: string[] = [];
  let batch = '';
  const flush = () => {
    const markdown = batch ? htmlToMarkdown(batch) : '';
    if (markdown) parts.push(markdown);
    batch = '';
  };
  for (const chunk of chunks) {
    if (batch && batch.length + chunk.length > BATCH_CHARS) flush();
    batch += chunk;
  }
  flush();
  return parts.join('\n\n');
}
