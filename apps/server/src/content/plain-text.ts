import { type ContentElement, type ContentNode, tagNameOf } from './light-dom.js';
import { svgLabels } from './svg-text.js';
import { collapseSpaces } from './whitespace.js';

/** Blocks separated from their neighbours by a blank line. */
const PARAGRAPH_BLOCKS = new Set([
  'ADDRESS',
  'ARTICLE',
  'ASIDE',
  'BLOCKQUOTE',
  'DETAILS',
  'DIALOG',
  'DL',
  'FIELDSET',
  'FIGCAPTION',
  'FIGURE',
  'FOOTER',
  'FORM',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'HEADER',
  'HGROUP',
  'HR',
  'MAIN',
  'NAV',
  'OL',
  'P',
  'PRE',
  'SECTION',
  'TABLE',
  'UL',
]);
/** Blocks that start a new line but not a new paragraph. */
const LINE_BLOCKS = new Set([
  'DIV',
  'LI',
  'DT',
  'DD',
  'TR',
  'CAPTION',
  'SUMMARY',
  'LEGEND',
  'OPTION',
  'CENTER',
]);
/** Never shown as text. */
const SKIPPED = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'CANVAS', 'IFRAME', 'OBJECT']);

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;

/**
 * Builds plain text as a list of pieces and breaks. Inline whitespace is
 * collapsed to single spaces; `<pre>` keeps its own; a break of 2 is a
 * blank line, of 1 a newline, and consecutive breaks keep the strongest.
 */
class TextBuilder {
  private readonly out: string[] = [];
  private line = '';
  /**
   * The line's last character, kept beside it: asking the line itself
   * (`endsWith`) flattens the rope that appending builds, copying the whole
   * line again for every piece of text added to it.
   */
  private lineEnd = '';
  private pendingBreak = 0;

  text(raw: string): void {
    const collapsed = collapseSpaces(raw);
    const atGap = this.line === '' || this.lineEnd === ' ' || this.lineEnd === '\t';
    // Collapsed, a text of whitespace only is '' or ' '.
    if ((collapsed === '' || collapsed === ' ') && atGap) return;
    this.startLine();
    this.append(atGap && collapsed.charCodeAt(0) === 32 ? collapsed.slice(1) : collapsed);
  }

  cell(): void {
    if (this.line !== '' && this.lineEnd !== '\t') {
      this.line = this.line.trimEnd();
      this.append('\t');
    }
  }

  preformatted(raw: string): void {
    this.breakAt(2);
    this.startLine();
    this.append(raw.replace(/^\n/, '').replace(/\s+$/, ''));
    this.breakAt(2);
  }

  private append(text: string): void {
    if (text === '') return;
    this.line += text;
    this.lineEnd = text[text.length - 1]!;
  }

  breakAt(strength: number): void {
    this.flushLine();
    this.pendingBreak = Math.max(this.pendingBreak, strength);
  }

  finish(): string {
    this.flushLine();
    return this.out.join('');
  }

  private startLine(): void {
    if (this.pendingBreak > 0 && this.out.length > 0) this.out.push(this.pendingBreak >= 2 ? '\n\n' : '\n');
    this.pendingBreak = 0;
  }

  private flushLine(): void {
    const line = trimSpacesAndTabsEnd(this.line);
    if (NOT_WHITESPACE.test(line)) this.out.push(line);
    this.line = '';
    this.lineEnd = '';
  }
}

/** A character that `trim()` keeps. */
const NOT_WHITESPACE = /\S/;

/**
 * `line` without its trailing spaces and tabs (as `replace(/[ \t]+$/, '')`,
 * which tries the pattern at every space of the line: a scan of the whole
 * line for each line written).
 */
function trimSpacesAndTabsEnd(line: string): string {
  let end = line.length;
  while (end > 0) {
    const code = line.charCodeAt(end - 1);
    if (code !== 32 && code !== 9) break;
    end -= 1;
  }
  return end === line.length ? line : line.slice(0, end);
}

/** How an element breaks the text before and after it: 2 a blank line, 1 a newline, 0 not at all. */
function breakStrength(tag: string): number {
  return PARAGRAPH_BLOCKS.has(tag) ? 2 : LINE_BLOCKS.has(tag) ? 1 : 0;
}

/** Writes what a node shows on entering it; true when its children are to be walked (then it is left after them). */
function enter(node: ContentNode, builder: TextBuilder): boolean {
  if (node.nodeType === TEXT_NODE) {
    builder.text(node.textContent ?? '');
    return false;
  }
  if (node.nodeType !== ELEMENT_NODE) return false;
  const tag = tagNameOf(node as ContentElement);
  if (SKIPPED.has(tag)) return false;
  if (tag === 'SVG') {
    // A diagram's labels, in the order drawn, as text in the line (an icon's SVG shows none).
    const labels = svgLabels(node as ContentElement);
    if (labels.length > 0) builder.text(` ${labels.join(' ')} `);
    return false;
  }
  if (tag === 'BR') {
    builder.breakAt(1);
    return false;
  }
  if (tag === 'PRE') {
    builder.preformatted(node.textContent ?? '');
    return false;
  }
  const strength = breakStrength(tag);
  if (strength) builder.breakAt(strength);
  return true;
}

/** Ends an element whose children were walked: a table cell's tab, a block's break. */
function leave(element: ContentElement, builder: TextBuilder): void {
  const tag = tagNameOf(element);
  if (tag === 'TD' || tag === 'TH') builder.cell();
  const strength = breakStrength(tag);
  if (strength) builder.breakAt(strength);
}

/**
 * Walks the tree in document order by its own links: no recursion
 * (malformed pages can nest deeper than the call stack) and no stack of
 * steps (an object for every node of the page, only to be collected).
 */
function walk(root: ContentElement, builder: TextBuilder): void {
  let node: ContentNode | null = root.firstChild;
  while (node) {
    if (enter(node, builder)) {
      const child: ContentNode | null = node.firstChild;
      if (child) {
        node = child;
        continue;
      }
      leave(node as ContentElement, builder);
    }
    // On to the next sibling, else up to the nearest ancestor that has one, leaving each ancestor passed.
    let next: ContentNode | null = null;
    while (node !== root) {
      next = node.nextSibling;
      if (next) break;
      node = node.parentElement!;
      if (node === root) break;
      leave(node as ContentElement, builder);
    }
    node = next;
  }
}

/**
 * The plain text of an element, as a reader would see it: one line per
 * block, a blank line between paragraphs, headings and lists, table cells
 * separated by tabs, `<pre>` kept verbatim, whitespace collapsed elsewhere.
 */
export function elementToText(root: ContentElement): string {
  const builder = new TextBuilder();
  walk(root, builder);
  return builder.finish();
}
