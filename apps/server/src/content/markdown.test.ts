import { describe, expect, it } from 'vitest';
import { elementToMarkdown } from './markdown.js';
import { parseHtmlDocument } from './parse-document.js';

const markdownOf = (html: string) => elementToMarkdown(parseHtmlDocument(html).body);

describe('elementToMarkdown', () => {
  it('converts inline runs beside blocks without losing or reordering text', () => {
    expect(markdownOf('Intro <a href="https://e.com/">link</a> text<p>Para</p>tail <em>end</em>')).toBe(
      'Intro [link](https://e.com/) text\n\nPara\n\ntail *end*',
    );
  });

  it('splits large containers and keeps their order', () => {
    const items = Array.from(
      { length: 300 },
      (_, i) => `<p>Paragraph number ${i} with <b>bold</b> words.</p>`,
    );
    const markdown = markdownOf(`<div><section>${items.join('')}</section></div>`);
    const paragraphs = markdown.split('\n\n');
    expect(paragraphs).toHaveLength(300);
    expect(paragraphs[0]).toBe('Paragraph number 0 with **bold** words.');
    expect(paragraphs[299]).toBe('Paragraph number 299 with **bold** words.');
  });

  it('escapes text that would read as markup', () => {
    expect(markdownOf('<p>1 &lt; 2 &amp;&amp; *not emphasis*</p>')).toBe('1 < 2 && \\*not emphasis\\*');
  });

  it('keeps lists and nested lists whole', () => {
    expect(markdownOf('<ul><li>a<ul><li>b</li></ul></li><li>c</li></ul>')).toBe('- a\n  - b\n- c');
  });
});
