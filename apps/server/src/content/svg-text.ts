/**
 * The text an inline `<svg>` shows: the labels of a diagram drawn in the
 * page (a syntax diagram, a flow chart, a chart's axes). They are content a
 * reader sees, and Readability keeps them (its text is the DOM's text), so
 * the converters write them out; an SVG that shows no text (an icon, a
 * logo) is dropped as before.
 */
import { type ContentElement, ELEMENT_NODE, TEXT_NODE, tagNameOf } from './light-dom.js';

/** SVG elements whose text is shown: `<text>` (its `<tspan>`s, `<textPath>`s and `<a>`s are inside it). */
const SHOWN_TEXT = 'TEXT';
/** Inside these nothing is drawn where it stands (definitions used elsewhere, and style or script). */
const NOT_DRAWN = new Set([
  'DEFS',
  'SYMBOL',
  'CLIPPATH',
  'MASK',
  'PATTERN',
  'MARKER',
  'STYLE',
  'SCRIPT',
  'TITLE',
  'DESC',
]);

/**
 * The labels of an inline SVG, in document order (the order its author drew
 * them in, and the order of the DOM's text): each `<text>` element's text
 * with its whitespace collapsed, the empty ones left out. Iterative, like
 * the other walkers: a hostile SVG may nest deeply.
 */
export function svgLabels(svg: ContentElement): string[] {
  const labels: string[] = [];
  const stack: ContentElement[] = [];
  for (let child = svg.lastElementChild; child; child = child.previousElementSibling) stack.push(child);
  while (stack.length > 0) {
    const element = stack.pop()!;
    const tag = tagNameOf(element);
    if (NOT_DRAWN.has(tag)) continue;
    if (tag === SHOWN_TEXT) {
      const label = shownText(element);
      if (label) labels.push(label);
      continue;
    }
    for (let child = element.lastElementChild; child; child = child.previousElementSibling) stack.push(child);
  }
  return labels;
}

/** The text of a `<text>` element, collapsed: `<tspan>`s run on, a `<title>` inside it (a tooltip) is left out. */
function shownText(text: ContentElement): string {
  let out = '';
  const stack: (ContentElement | string)[] = [text];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item === 'string') {
      out += item;
      continue;
    }
    for (let node = item.lastChild; node; node = node.previousSibling) {
      if (node.nodeType === TEXT_NODE) stack.push(node.textContent ?? '');
      else if (node.nodeType === ELEMENT_NODE) {
        const element = node as ContentElement;
        if (!NOT_DRAWN.has(tagNameOf(element))) stack.push(element);
      }
    }
  }
  return out.replace(/\s+/g, ' ').trim();
}

/** Whether an inline SVG shows any text (whether it is more than a picture to the converters). */
export function svgShowsText(svg: ContentElement): boolean {
  return svgLabels(svg).length > 0;
}
