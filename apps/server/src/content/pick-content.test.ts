import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertPage } from './convert-page.js';
import { parseLightDocument } from './light-dom.js';
import { pickMainContent, shortPageContent } from './pick-content.js';

const prose = (topic: string, n: number) =>
  Array.from(
    { length: n },
    (_, i) =>
      `<p>Paragraph ${i} about ${topic}, written as prose, with commas, clauses and enough words to read as content rather than chrome.</p>`,
  ).join('\n');
const links = (n: number) =>
  Array.from({ length: n }, (_, i) => `<li><a href="/p${i}">Link ${i}</a></li>`).join('');

function pick(html: string) {
  const document = parseLightDocument(html);
  return { document, picked: pickMainContent(document.body!, 'https://e.com/page') };
}

describe('pickMainContent', () => {
  it('picks the prose container over link lists, and drops chrome named by class or role', () => {
    const { picked } = pick(`<html><body>
      <div class="menu"><ul>${links(30)}</ul></div>
      <div id="wrapper">
        <div class="story">${prose('kettles', 6)}</div>
        <div class="comments">${prose('opinions', 8)}</div>
      </div>
      <div role="navigation">${prose('navigation', 3)}</div>
    </body></html>`);
    const text = picked?.textContent ?? '';
    expect(text).toContain('Paragraph 5 about kettles');
    expect(text).not.toContain('opinions'); // class "comments": an unlikely candidate
    expect(text).not.toContain('Link 1');
    expect(text).not.toContain('about navigation');
  });

  it('keeps every section of a page made of many sections of the same weight', () => {
    const sections = ['install', 'usage', 'options', 'examples']
      .map(
        (name, i) => `<div class="sect1"><h2>${name}</h2><div class="body">${prose(name, 2 + i)}</div></div>`,
      )
      .join('\n');
    const { picked } = pick(
      `<html><body><div id="top"><ul>${links(40)}</ul></div><div id="page">${sections}</div></body></html>`,
    );
    const text = picked?.textContent ?? '';
    for (const name of ['install', 'usage', 'options', 'examples'])
      expect(text).toContain(`Paragraph 1 about ${name}`);
    expect(text).not.toContain('Link 1'); // a sibling of the content, made of links
  });

  it('keeps a sibling paragraph that reads as prose beside the picked container', () => {
    const { picked } = pick(`<html><body><div class="page">
      <p>A lead paragraph that stands beside the article body and reads as prose, long enough to count as content here.</p>
      <div class="text">${prose('tea', 6)}</div>
      <ul class="share">${links(10)}</ul>
    </div></body></html>`);
    const text = picked?.textContent ?? '';
    expect(text).toContain('A lead paragraph');
    expect(text).toContain('Paragraph 5 about tea');
  });

  it('takes a sole <article> as it is', () => {
    const { document, picked } = pick(
      `<html><body><div class="sidebar">${prose('ads', 2)}</div><article><h1>T</h1>${prose('bread', 5)}</article></body></html>`,
    );
    expect(picked?.tagName).toBe('ARTICLE');
    expect(document.body!.textContent).toContain('about ads'); // nothing else was touched
  });

  it('answers null and leaves the tree alone on a short page', () => {
    const html =
      '<html><body><div class="footer">Footer</div><p>Short page, one paragraph of text.</p></body></html>';
    const { document, picked } = pick(html);
    expect(picked).toBeNull();
    expect(document.body!.textContent).toContain('Footer');
    expect(shortPageContent(document.body!)).toBe(document.body); // then the whole body is the content
  });

  it('takes the sole <article> of a short page', () => {
    const { document } = pick('<html><body><nav>Menu</nav><article><p>Short.</p></article></body></html>');
    expect(shortPageContent(document.body!).tagName).toBe('ARTICLE');
  });

  it('survives nesting deeper than the call stack', () => {
    const depth = 20_000;
    const { picked } = pick(
      `<html><body>${'<div>'.repeat(depth)}${prose('depth', 6)}${'</div>'.repeat(depth)}</body></html>`,
    );
    expect(picked?.textContent).toContain('Paragraph 5 about depth');
  });
});

describe('convertPage on real pages that mark nothing (Git manual)', () => {
  const root = '/usr/share/doc/git-doc';
  const files = readdirSync(root)
    .filter((f) => f.endsWith('.html'))
    .sort();
  // A spread of the manual (every 20th page), not a picked few.
  const sample = files.filter((_, i) => i % 20 === 0);

  it.each(sample)(
    '%s: the picker keeps every paragraph of the content, and no site footer on a long page',
    (file) => {
      const html = readFileSync(join(root, file), 'utf8');
      const page = convertPage(html, `http://127.0.0.1/${file}`, { html: false });
      expect(page.article, 'Readability did not run').toBeUndefined();
      // The manual's own content region (asciidoc's #content; nothing marks it for a browser).
      const content = parseLightDocument(html).body!;
      const words = (text: string) => (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join('');
      const markdown = words(page.markdown.replace(/\]\([^)]*\)/g, ']'));
      const stack = [content];
      let region = null;
      while (stack.length > 0 && !region) {
        const element = stack.pop()!;
        if (element.getAttribute('id') === 'content') region = element;
        for (let child = element.firstElementChild; child; child = child.nextElementSibling)
          stack.push(child);
      }
      expect(region).not.toBeNull();
      const paragraphs: string[] = [];
      const walk = [region!];
      while (walk.length > 0) {
        const element = walk.pop()!;
        if (element.tagName === 'P') paragraphs.push(words(element.textContent));
        for (let child = element.firstElementChild; child; child = child.nextElementSibling) walk.push(child);
      }
      for (const paragraph of paragraphs) expect(markdown, paragraph.slice(0, 60)).toContain(paragraph);
      // The manual's #footer; a short page (under 500 characters in #content) is taken whole, as Readability does.
      if (words(region!.textContent).length > 1000) expect(page.markdown).not.toMatch(/Last updated \d{4}/);
    },
  );
});
