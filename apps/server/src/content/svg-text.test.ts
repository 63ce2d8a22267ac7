import { describe, expect, it } from 'vitest';
import { parseLightDocument } from './light-dom.js';
import { removeNoise } from './main-content.js';
import { elementToMarkdown } from './markdown.js';
import { parseHtmlDocument } from './parse-document.js';
import { elementToText } from './plain-text.js';
import { svgLabels } from './svg-text.js';

/** A small diagram: two boxes, a `<tspan>`-split label, and text that is never drawn where it stands. */
const DIAGRAM =
  '<svg viewBox="0 0 10 10"><style>text{font:9px}</style><title>A tooltip</title>' +
  '<path d="M0 0h9"/><text x="1" y="2">CREATE</text><g><text x="5"><tspan>IF</tspan> <tspan>NOT\n  EXISTS</tspan></text></g>' +
  '<text> </text><defs><symbol id="s"><text>unused</text></symbol></defs><text><title>tip</title>name</text></svg>';
const ICON = '<svg viewBox="0 0 4 4" class="icon"><path d="M0 0L4 4"/></svg>';

describe('svgLabels', () => {
  it('reads the drawn labels in document order, on both trees', () => {
    const light = parseLightDocument(`<html><body>${DIAGRAM}</body></html>`).body!.firstElementChild!;
    const dom = parseHtmlDocument(`<html><body>${DIAGRAM}</body></html>`).body.firstElementChild!;
    for (const svg of [light, dom]) expect(svgLabels(svg)).toEqual(['CREATE', 'IF NOT EXISTS', 'name']);
  });

  it('reads nothing from an icon', () => {
    expect(svgLabels(parseHtmlDocument(ICON).body.firstElementChild!)).toEqual([]);
  });
});

describe('inline SVG in the converters', () => {
  it('writes a diagram as its labels in the paragraph where it stands, and drops an icon', () => {
    const body = parseHtmlDocument(`<p>Syntax:</p><div>${DIAGRAM}</div><p>Click ${ICON} to copy.</p>`).body;
    expect(elementToMarkdown(body)).toBe('Syntax:\n\nCREATE IF NOT EXISTS name\n\nClick to copy.');
    expect(elementToText(body)).toBe('Syntax:\n\nCREATE IF NOT EXISTS name\n\nClick to copy.');
  });

  it('escapes labels that would read as Markdown', () => {
    const svg = '<svg><text>*</text><text>[expr]</text></svg>';
    expect(elementToMarkdown(parseHtmlDocument(`<p>a ${svg} b</p>`).body)).toBe('a \\* \\[expr\\] b');
  });

  it('keeps a diagram when cleaning the content and removes an icon or a hidden diagram', () => {
    const html = `<html><body><main><p>x</p>${DIAGRAM}${ICON}<div aria-hidden="true">${DIAGRAM}</div></main></body></html>`;
    const main = parseLightDocument(html).body!.firstElementChild!;
    removeNoise(main, 'http://127.0.0.1/');
    const kept: string[] = [];
    for (let child = main.firstElementChild; child; child = child.nextElementSibling)
      kept.push(child.tagName);
    expect(kept).toEqual(['P', 'SVG']);
    expect(svgLabels(main.lastElementChild!)).toEqual(['CREATE', 'IF NOT EXISTS', 'name']);
  });
});
