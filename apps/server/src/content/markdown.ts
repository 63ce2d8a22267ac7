/**
 * Markdown (GitHub flavour) written straight from the parsed DOM: one walk
 * over the content element, no HTML serialised and parsed again. Headings
 * (ATX), paragraphs, `-` and numbered lists nested by indentation, fenced
 * code with its language, GFM tables, block quotes, links and images,
 * `**strong**`, `*emphasis*` and `` `code` ``.
 *
 * It replaces node-html-markdown, which parsed the HTML a second time (the
 * content was serialised for it piece by piece) and whose cost grew with
 * the square of the text converted at once: on the Python manual's pages
 * (~90 KB each) Markdown cost more than everything else of a page together.
 */

import { type ContentElement, type ContentNode, firstDescendant, tagNameOf } from './light-dom.js';
import { parseHtmlDocument } from './parse-document.js';
import { svgLabels } from './svg-text.js';
import { collapseSpaces } from './whitespace.js';

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;

/** Elements whose content is never text of the page. */
const SKIPPED = new Set([
  'SCRIPT',
  'STYLE',
  'NOSCRIPT',
  'TEMPLATE',
  'HEAD',
  'TITLE',
  'META',
  'LINK',
  'IFRAME',
  'OBJECT',
  'EMBED',
  'CANVAS',
  'BUTTON',
  'INPUT',
  'SELECT',
  'TEXTAREA',
]);

/** Phrasing elements: converted with the text beside them, into the same paragraph. */
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
  'SVG',
  'TIME',
  'TT',
  'U',
  'VAR',
  'WBR',
]);

const CODE_LIKE = new Set(['CODE', 'KBD', 'SAMP', 'TT']);
const LANGUAGE_CLASS = /(?:^|\s)(?:language|lang)-([\w+#.-]+)/;
/**
 * What at a line's start would begin another block (CommonMark): an ATX heading (`#` to `######`
 * then a space), a block quote (`>`), a bullet (`-`, `+` then a space), an ordered item (`1.`,
 * `1)` then a space), a setext underline or thematic break (a line of `=` or `-`), a `~~~` fence.
 * Only these are escaped, so an option such as `--force` or `-v` or a `#include` at a line's
 * start stays as the page wrote it (they begin no block).
 */
const BLOCK_MARKER_START =
  /^(?:#{1,6}(?=[ \t]|$)|>|[+-](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$)|[=-]+[ \t]*$|~{3})/;

const SPECIAL = /[\\*`[\]_<]/;

/**
 * Escapes the characters that would otherwise read as Markdown syntax inside running text, and a
 * `<` that would open raw HTML or an autolink (before a letter, `/`, `!` or `?`), so a manual's
 * `<commit>` or `--file=<file>` does not vanish from the rendered Markdown.
 */
function escapeText(text: string): string {
  // Most text has none of these: skip the Unicode-aware pass (the costliest regex of the writer).
  if (!SPECIAL.test(text)) return text;
  return text.replace(/[\\*`[\]]|<(?=[A-Za-z/!?])|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, '\\$&');
}

/**
 * A line with its leading block marker, if any, escaped: the backslash before the marker, or for an
 * ordered item before its `.` or `)` (`1\\.`): a backslash before a digit escapes nothing and would show.
 */
function escapeLineStart(line: string): string {
  if (!BLOCK_MARKER_START.test(line)) return line;
  const ordered = /^\d+(?=[.)])/.exec(line);
  return ordered ? `${ordered[0]}\\${line.slice(ordered[0].length)}` : `\\${line}`;
}

/** Escapes a link target (angle brackets where it holds spaces or parentheses). */
function linkTarget(url: string): string {
  return /[\s()<>]/.test(url) ? `<${url.replace(/[<>]/g, encodeURIComponent)}>` : url;
}

/** Wraps `text` in `mark` while keeping its outer whitespace outside (`** x**` is not emphasis). */
function wrap(text: string, mark: string): string {
  const match = /^(\s*)([\s\S]*?)(\s*)$/.exec(text)!;
  if (!match[2]) return text;
  return `${match[1]}${mark}${match[2]}${mark}${match[3]}`;
}

/** Inline code: a fence of backticks longer than any run inside the code. */
function inlineCode(code: string): string {
  const text = collapseSpaces(code);
  if (!text.trim()) return text;
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/**
 * The escaped text of the run of adjacent text nodes starting at `first`, and the run's last node.
 * Escaped as one: a parser may split one text at its entities (linkedom does), and `&lt;commit&gt;`
 * must be seen whole to be escaped as the same text from another parser would be.
 */
function textRunOf(first: ContentNode): { text: string; last: ContentNode } {
  let raw = first.textContent ?? '';
  let last = first;
  for (let next = last.nextSibling; next?.nodeType === TEXT_NODE; next = last.nextSibling) {
    last = next;
    raw += next.textContent ?? '';
  }
  return { text: escapeText(collapseSpaces(raw)), last };
}

/** The Markdown of an element's children as phrasing content (one paragraph, `\n` only from `<br>`). */
function inlineOf(parent: ContentElement): string {
  let out = '';
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === TEXT_NODE) {
      const run = textRunOf(node);
      out += run.text;
      node = run.last;
    } else if (node.nodeType === ELEMENT_NODE) out += inlineElement(node as ContentElement);
  }
  return out;
}

function inlineElement(element: ContentElement): string {
  const tag = tagNameOf(element);
  if (SKIPPED.has(tag)) return '';
  switch (tag) {
    case 'BR':
      return '\n';
    case 'SVG': {
      // A diagram's labels, in the order drawn, as text beside the text around it (an icon's SVG shows none).
      const labels = svgLabels(element);
      return labels.length > 0 ? ` ${escapeText(labels.join(' '))} ` : '';
    }
    case 'A': {
      const text = inlineOf(element);
      const href = element.getAttribute('href')?.trim();
      if (!href || !text.trim()) return text;
      const label = text.replace(/\s*\n\s*/g, ' ');
      const match = /^(\s*)([\s\S]*?)(\s*)$/.exec(label)!;
      return `${match[1]}[${match[2]}](${linkTarget(href)})${match[3]}`;
    }
    case 'IMG': {
      const src = element.getAttribute('src')?.trim();
      if (!src || /^data:/i.test(src)) return '';
      const alt = escapeText((element.getAttribute('alt') ?? '').replace(/\s+/g, ' ').trim());
      return `![${alt}](${linkTarget(src)})`;
    }
    case 'STRONG':
    case 'B':
      return wrap(inlineOf(element), '**');
    case 'EM':
    case 'I':
    case 'CITE':
    case 'DFN':
    case 'VAR':
      // `*`, not `_`: an underscore cannot open or close emphasis inside a word (`*i*th`).
      return wrap(inlineOf(element), '*');
    case 'DEL':
    case 'S':
    case 'STRIKE':
      return wrap(inlineOf(element), '~~');
    default:
      if (CODE_LIKE.has(tag)) return inlineCode(element.textContent ?? '');
      // A block inside phrasing content (a <div> in an <a>) joins the line.
      return INLINE.has(tag) ? inlineOf(element) : ` ${inlineOf(element)} `;
  }
}

/** A paragraph from inline Markdown: lines trimmed, whitespace collapsed, each line's leading block marker escaped. */
function paragraph(inline: string): string {
  if (!inline.includes('\n')) {
    // One line (no `<br>`): the same as below without splitting and joining.
    return escapeLineStart(inline.replace(/ {2,}/g, ' ').trim());
  }
  const lines = inline
    .split('\n')
    .map((line) => line.replace(/ {2,}/g, ' ').trim())
    .filter((line, index, all) => line !== '' || (index > 0 && index < all.length - 1));
  // Each line: after a hard break a line can still begin a list, a heading or a setext underline.
  return lines.map(escapeLineStart).join('  \n').trim();
}

/** The Markdown blocks of an element's children (inline runs become paragraphs). */
function blocksOf(parent: ContentElement): string[] {
  const blocks: string[] = [];
  // No `flush` closure: one made per call was compiled again for each new closure that ran hot.
  let inline = '';
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === TEXT_NODE) {
      const run = textRunOf(node);
      inline += run.text;
      node = run.last;
      continue;
    }
    if (node.nodeType !== ELEMENT_NODE) continue;
    const element = node as ContentElement;
    const tag = tagNameOf(element);
    if (SKIPPED.has(tag)) continue;
    if (INLINE.has(tag)) {
      inline += inlineElement(element);
      continue;
    }
    const text = paragraph(inline);
    if (text) blocks.push(text);
    inline = '';
    blockElement(element, blocks);
  }
  const text = paragraph(inline);
  if (text) blocks.push(text);
  return blocks;
}

/** Prefixes every non-empty line after the first (the first follows a list marker). */
function indentRest(text: string, prefix: string): string {
  if (!text.includes('\n')) return text; // one line: nothing to indent (most list items)
  return text
    .split('\n')
    .map((line, index) => (index === 0 || line === '' ? line : `${prefix}${line}`))
    .join('\n');
}

function codeBlock(pre: ContentElement): string {
  const code = firstDescendant(pre, 'CODE');
  const language =
    LANGUAGE_CLASS.exec(code?.getAttribute('class') ?? '')?.[1] ??
    LANGUAGE_CLASS.exec(pre.getAttribute('class') ?? '')?.[1] ??
    '';
  const text = (pre.textContent ?? '').replace(/^\n/, '').replace(/\s+$/, '');
  let longest = 2;
  for (const run of text.match(/^ {0,3}`{3,}/gm) ?? []) longest = Math.max(longest, run.trim().length);
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${text}\n${fence}`;
}

function list(element: ContentElement): string {
  const ordered = tagNameOf(element) === 'OL';
  let number = Number.parseInt(element.getAttribute('start') ?? '1', 10);
  if (!Number.isFinite(number)) number = 1;
  const items: string[] = [];
  for (let child = element.firstElementChild; child; child = child.nextElementSibling) {
    const tag = tagNameOf(child);
    if (SKIPPED.has(tag)) continue;
    if (tag === 'UL' || tag === 'OL') {
      // A list straight inside a list (invalid but common) belongs to the item before it.
      const nested = list(child);
      if (nested && items.length > 0) items[items.length - 1] += `\n  ${indentRest(nested, '  ')}`;
      else if (nested) items.push(nested);
      continue;
    }
    const marker = ordered ? `${number}. ` : '- ';
    number += 1;
    const blocks = blocksOf(child);
    // A nested list follows its item's text on the next line; other blocks are paragraphs apart.
    let body = '';
    for (const block of blocks) {
      if (body === '') body = block;
      else body += /^(?:- |\d+\. )/.test(block) ? `\n${block}` : `\n\n${block}`;
    }
    items.push(`${marker}${indentRest(body, ' '.repeat(marker.length))}`.trimEnd());
  }
  return items.join('\n');
}

/** One table cell's Markdown on one line (`|` escaped). */
function cell(element: ContentElement): string {
  return blocksOf(element)
    .join(' ')
    .replace(/\s*\n\s*/g, ' ')
    .replace(/\|/g, '\\|')
    .trim();
}

/**
 * Adds the rows of a table section (`<thead>`, `<tbody>`, `<tfoot>` or the
 * table itself) to `rows`; returns how many of the rows are header rows.
 * A module function, not a closure made per table (V8 compiled such a
 * closure again for each new one that ran hot).
 */
function collectRows(section: ContentElement, inHead: boolean, rows: string[][], headerRows: number): number {
  for (let row = section.firstElementChild; row; row = row.nextElementSibling) {
    const tag = tagNameOf(row);
    if (tag === 'THEAD' || tag === 'TBODY' || tag === 'TFOOT') {
      headerRows = collectRows(row, tag === 'THEAD', rows, headerRows);
      continue;
    }
    if (tag !== 'TR') continue;
    const cells: string[] = [];
    let allHeaders = true;
    for (let c = row.firstElementChild; c; c = c.nextElementSibling) {
      const cellTag = tagNameOf(c);
      if (cellTag !== 'TD' && cellTag !== 'TH') continue;
      if (cellTag === 'TD') allHeaders = false;
      cells.push(cell(c));
      const span = Math.min(Number.parseInt(c.getAttribute('colspan') ?? '1', 10) || 1, 50);
      for (let i = 1; i < span; i += 1) cells.push('');
    }
    if (cells.length === 0) continue;
    if (rows.length === headerRows && (inHead || allHeaders)) headerRows += 1;
    rows.push(cells);
  }
  return headerRows;
}

function table(element: ContentElement): string {
  const rows: string[][] = [];
  collectRows(element, false, rows, 0);
  if (rows.length === 0) return '';
  const width = Math.max(...rows.map((row) => row.length));
  const line = (cells: string[]) =>
    `| ${Array.from({ length: width }, (_, i) => cells[i] ?? '').join(' | ')} |`;
  // GFM needs exactly one header row: the first row is it (merged header rows are not a GFM thing).
  const [head, ...body] = rows;
  return [
    line(head!),
    `| ${Array.from({ length: width }, () => '---').join(' | ')} |`,
    ...body.map(line),
  ].join('\n');
}

function blockElement(element: ContentElement, blocks: string[]): void {
  const tag = tagNameOf(element);
  switch (tag) {
    case 'H1':
    case 'H2':
    case 'H3':
    case 'H4':
    case 'H5':
    case 'H6': {
      const text = collapseSpaces(inlineOf(element)).trim();
      if (text) blocks.push(`${'#'.repeat(Number(tag[1]))} ${text}`);
      return;
    }
    case 'PRE':
      blocks.push(codeBlock(element));
      return;
    case 'UL':
    case 'OL': {
      const text = list(element);
      if (text) blocks.push(text);
      return;
    }
    case 'TABLE': {
      const text = table(element);
      if (text) blocks.push(text);
      return;
    }
    case 'BLOCKQUOTE': {
      const inner = blocksOf(element).join('\n\n');
      if (inner) blocks.push(inner.replace(/^/gm, '> ').replace(/^> $/gm, '>'));
      return;
    }
    case 'HR':
      blocks.push('---');
      return;
    case 'DT': {
      // The term in bold on its own line (after wrapping, a leading `-` no longer reads as a list).
      const text = collapseSpaces(inlineOf(element)).trim();
      if (text) blocks.push(wrap(text, '**'));
      return;
    }
    default:
      // Paragraphs, definitions, figures and every layout container: their children, block by block.
      for (const block of blocksOf(element)) blocks.push(block);
  }
}

/** Converts a fragment of HTML to Markdown (parsed on its own; pages go through {@link elementToMarkdown}). */
export function htmlToMarkdown(html: string): string {
  return elementToMarkdown(parseHtmlDocument(html).body);
}

/** Converts an element's content to Markdown (see the module comment for what is written). */
export function elementToMarkdown(root: ContentElement): string {
  return blocksOf(root)
    .join('\n\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
