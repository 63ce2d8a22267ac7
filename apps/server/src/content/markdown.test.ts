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

  it('escapes a < that would open raw HTML, so a placeholder such as <commit> shows', () => {
    expect(markdownOf('<p>git show &lt;commit&gt; --file=&lt;file&gt;, 1 &lt; 2, a &lt;/b&gt;</p>')).toBe(
      'git show \\<commit> --file=\\<file>, 1 < 2, a \\</b>',
    );
  });

  it('escapes a line start only where it would begin a block, on every line of a paragraph', () => {
    // Options and directives begin no block: written as the page has them.
    expect(markdownOf('<p>--force overwrites</p>')).toBe('--force overwrites');
    expect(markdownOf('<p>-v is verbose</p>')).toBe('-v is verbose');
    expect(markdownOf('<p>#include &lt;stdio.h&gt;</p>')).toBe('#include \\<stdio.h>');
    expect(markdownOf('<p>+1 for this</p>')).toBe('+1 for this');
    // What would begin a list, a heading, a quote or a rule is escaped, with a backslash that shows nothing.
    expect(markdownOf('<p>- not a list</p>')).toBe('\\- not a list');
    expect(markdownOf('<p># not a heading</p>')).toBe('\\# not a heading');
    expect(markdownOf('<p>&gt; not a quote</p>')).toBe('\\> not a quote');
    expect(markdownOf('<p>1. not a list</p>')).toBe('1\\. not a list');
    expect(markdownOf('<p>first<br>- second<br>===<br>2) third</p>')).toBe(
      'first  \n\\- second  \n\\===  \n2\\) third',
    );
  });

  it('keeps lists and nested lists whole', () => {
    expect(markdownOf('<ul><li>a<ul><li>b</li></ul></li><li>c</li></ul>')).toBe('- a\n  - b\n- c');
  });
});
