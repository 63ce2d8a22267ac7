/**
 * Markdown fidelity on real pages nobody here wrote: Debian's HTML manuals
 * (python3.11-doc, git-doc; CI installs them). The Markdown of each page's
 * content region (what the manual marks as its content) is checked against
 * that region's own HTML, not against a stored answer (on the Git pages,
 * which mark nothing, also the Markdown of the content the picker chose for
 * the whole page): every table of the content
 * comes out as a GFM table with the same rows and cells, every code block
 * as a fence with its text (and its language where the page names one), every
 * nested list indented under its item, every link as `[text](absolute URL)`.
 * Inline SVG on real pages too: a diagram's drawn labels come out as text
 * (the SQLite manual's syntax diagrams, sqlite3-doc), an icon leaves nothing
 * (the "Edit this page" icon inside the content of a Material for MkDocs
 * site, mkdocs-literate-nav-doc).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { convertPage, convertWithReadability } from './convert-page.js';
import { type ContentElement, parseLightDocument } from './light-dom.js';
import { elementToMarkdown } from './markdown.js';
import { documentBaseUrl, scanPage } from './page-metadata.js';
import { parseHtmlDocument } from './parse-document.js';

const PYTHON = '/usr/share/doc/python3.11/html';
const GIT = '/usr/share/doc/git-doc';
const SQLITE = '/usr/share/doc/sqlite3';
/** A site built with Material for MkDocs, whose pages draw their icons as inline SVG. */
const MKDOCS_MATERIAL = '/usr/share/doc/mkdocs-literate-nav-doc/html';

interface RealPage {
  file: string;
  /** Where the page keeps its content (the checks look only there). */
  content: string;
  /** Whether the page marks it (`<main>`, `role="main"`); the Git manual's `#content` is marked by nothing a picker could trust. */
  marked: boolean;
}

const PAGES: RealPage[] = [
  { file: `${PYTHON}/library/stdtypes.html`, content: '[role="main"]', marked: true },
  { file: `${PYTHON}/tutorial/controlflow.html`, content: '[role="main"]', marked: true },
  { file: `${PYTHON}/library/argparse.html`, content: '[role="main"]', marked: true },
  { file: `${GIT}/git-commit.html`, content: '#content', marked: false },
  { file: `${GIT}/gittutorial.html`, content: '#content', marked: false },
  { file: `${GIT}/git-config.html`, content: '#content', marked: false },
];

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();
/** Text as Markdown shows it, markup removed, for comparing with the page's text. */
const plain = (markdown: string) =>
  collapse(
    markdown
      .replace(/!?\[((?:\\.|`[^`]*`|[^\]\\`])*)\]\((?:[^()\s]|\([^()]*\))*\)/g, '$1')
      // Code spans as they are; elsewhere emphasis marks dropped and escapes undone.
      .split(/(`[^`]*`|``[\s\S]*?``)/)
      .map((part, i) =>
        i % 2 === 1
          ? part.replace(/^`+ ?| ?`+$/g, '').replace(/\\\|/g, '|') // GFM: a pipe in a cell's code is escaped
          : part.replace(/(?<!\\)\*/g, '').replace(/\\([\\`*_[\]#>+=|-])/g, '$1'),
      )
      .join(''),
  );

/** The first element under `root` whose attribute has the value (`[role="main"]`, `#content`). */
function findLight(root: ContentElement, selector: string): ContentElement | null {
  const [, name, value] = /^\[(\w+)="(.*)"\]$/.exec(selector) ?? ['', 'id', selector.slice(1)];
  const stack = [root];
  while (stack.length > 0) {
    const element = stack.pop()!;
    if (element.getAttribute(name!) === value) return element;
    for (let child = element.lastElementChild; child; child = child.previousElementSibling) stack.push(child);
  }
  return null;
}

/**
 * The page's content region on linkedom (links made absolute, code languages
 * noted, as the converter does: the reference the checks read) and its
 * Markdown written from the tree named by `tree`: linkedom's (the fallback
 * path's tree), the light tree, or (`picked`) what `convertPage` wrote for
 * the whole page, where a page that marks nothing has its content chosen by
 * the picker (`pick-content.ts`) on the light tree.
 */
function load(page: RealPage, tree: 'linkedom' | 'light' | 'picked') {
  const url = `http://127.0.0.1/${page.file.split('/').slice(-2).join('/')}`;
  const html = readFileSync(page.file, 'utf8');
  const document = parseHtmlDocument(html);
  scanPage(document, documentBaseUrl(document, url));
  const content = document.querySelector(page.content);
  if (!content) throw new Error(`${page.file} has no ${page.content}`);
  if (tree === 'linkedom') return { url, content, markdown: elementToMarkdown(content) };
  if (tree === 'picked') {
    const converted = convertPage(html, url, { html: false });
    if (converted.article !== undefined) throw new Error(`${page.file} went to Readability, not the picker`);
    return { url, content, markdown: converted.markdown };
  }
  const light = parseLightDocument(html);
  scanPage(light, documentBaseUrl(light, url));
  const lightContent = findLight(light.documentElement!, page.content);
  if (!lightContent) throw new Error(`${page.file} has no ${page.content} in the light tree`);
  return { url, content, markdown: elementToMarkdown(lightContent) };
}

const TREES = ['linkedom', 'light', 'picked'] as const;

describe.each(
  PAGES.flatMap((page) =>
    TREES.filter((tree) => tree !== 'picked' || !page.marked).map((tree) => ({ ...page, tree })),
  ),
)('Markdown of $file from the $tree tree', (page) => {
  const { url, content, markdown } = load(page, page.tree);
  const lines = markdown.split('\n');

  it('writes every table as a GFM table with its rows and cells', () => {
    const tables = Array.from(content.querySelectorAll('table')).filter((t) => !t.querySelector('table'));
    let from = 0; // tables come out in page order
    for (const table of tables) {
      const rows = Array.from(table.querySelectorAll('tr'))
        .map((row) => Array.from(row.children).filter((c) => /^T[DH]$/i.test(c.tagName)))
        .filter((cells) => cells.length > 0);
      const first = rows[0]!.map((c) => collapse(c.textContent ?? ''));
      // The header line: the first row's cells, in order, between pipes.
      const at = lines.findIndex(
        (line, index) =>
          index >= from &&
          /^\s*\| /.test(line) &&
          line
            .trim()
            .slice(2, -2)
            .split(/(?<!\\) \| /)
            .map((cell) => plain(cell))
            .join('\u0000') === first.join('\u0000'),
      );
      expect(at, `table starting ${first.join(' | ')}`).toBeGreaterThanOrEqual(0);
      from = at + rows.length + 1;
      expect(lines[at + 1]!.trim()).toMatch(/^\| ---( \| ---)* \|$/);
      const body = lines.slice(at + 2, at + 1 + rows.length).map((line) => line.trim());
      expect(body).toHaveLength(rows.length - 1);
      for (const [i, line] of body.entries()) {
        expect(line.startsWith('| ') && line.endsWith(' |')).toBe(true);
        const cells = line
          .slice(2, -2)
          .split(/(?<!\\) \| /)
          .map((cell) => plain(cell));
        const expected = rows[i + 1]!.map((c) => collapse(c.textContent ?? ''));
        // Cells that span columns are followed by empty ones; the texts come in order.
        expect(cells.filter(Boolean)).toEqual(expected.filter(Boolean));
      }
    }
  });

  it('writes every code block as a fence holding its text, with the language the page names', () => {
    const blocks = Array.from(content.querySelectorAll('pre'));
    expect(blocks.length).toBeGreaterThan(0);
    for (const pre of blocks) {
      const text = (pre.textContent ?? '').replace(/^\n/, '').replace(/\s+$/, '');
      const named = /\bhighlight-([\w+#.-]+)/.exec(pre.parentElement?.parentElement?.className ?? '')?.[1];
      const language = named && !['default', 'none', 'text'].includes(named) ? named : '';
      // Inside a list item the whole fence is indented under the item's marker.
      const fenced = (indent: string) =>
        [
          `${indent}\`\`\`${language}`,
          ...text.split('\n').map((l) => (l ? indent + l : l)),
          `${indent}\`\`\``,
        ].join('\n');
      const found = ['', '  ', '   ', '    ', '     ', '      ', '        '].some((indent) =>
        markdown.includes(fenced(indent)),
      );
      expect(found, `${language} block ${text.slice(0, 60)}`).toBe(true);
    }
  });

  it('indents every nested list under its item', () => {
    const nested = Array.from(content.querySelectorAll('li > ul > li, li > ol > li'));
    for (const item of nested) {
      const words = collapse(item.firstElementChild?.textContent ?? item.textContent ?? '').slice(0, 40);
      if (!words) continue;
      const line = lines.find((l) => /^\s+(?:- |\d+\. )/.test(l) && plain(l).includes(words));
      expect(line, `nested item "${words}"`).toBeDefined();
    }
  });

  it('writes every link as [text](absolute URL)', () => {
    const links = Array.from(content.querySelectorAll('a[href]')).filter(
      (a) =>
        collapse(a.textContent ?? '') && !a.querySelector('img') && !a.closest('pre, h1, h2, h3, h4, h5, h6'),
    );
    expect(links.length).toBeGreaterThan(0);
    for (const a of links.slice(0, 200)) {
      const href = new URL(a.getAttribute('href')!, url).href;
      expect(markdown, href).toContain(`](${href})`);
    }
  });
});

describe('inline SVG on real pages', () => {
  const convert = (html: string, url: string) => [
    convertPage(html, url),
    convertWithReadability(html, url, { html: true }),
  ];

  // The SQLite manual draws its syntax diagrams as inline SVG (pikchr): the labels are the syntax.
  it.each(['lang_analyze.html', 'lang_dropindex.html'])(
    'writes the labels of each diagram of SQLite %s, in order, into Markdown and text on both paths',
    (file) => {
      const html = readFileSync(`${SQLITE}/${file}`, 'utf8');
      const diagrams = Array.from(parseHtmlDocument(html).querySelectorAll('svg'))
        .map((svg) =>
          Array.from(svg.querySelectorAll('text')).map((text) => collapse(text.textContent ?? '')),
        )
        .filter((labels) => labels.length > 0);
      expect(diagrams.length).toBeGreaterThan(0);
      for (const page of convert(html, `http://127.0.0.1/${file}`)) {
        for (const labels of diagrams) {
          expect(plain(page.markdown)).toContain(labels.join(' '));
          expect(collapse(page.text)).toContain(labels.join(' '));
        }
        // The content's HTML keeps the diagrams themselves.
        expect(page.html.match(/<svg\b/gi)?.length).toBe(diagrams.length);
      }
    },
  );

  // Icons (inline SVG drawing no text): the theme's header, search and source links, and the
  // "Edit this page" button inside the page's <article>, the content itself.
  it.each(['index.html', 'reference.html'])(
    'leaves the icons of Material for MkDocs %s out of the content, the one inside the article included',
    (file) => {
      const html = readFileSync(`${MKDOCS_MATERIAL}/${file}`, 'utf8');
      const document = parseHtmlDocument(html);
      const icons = Array.from(document.querySelectorAll('svg'));
      expect(icons.length).toBeGreaterThan(0);
      expect(icons.every((svg) => svg.querySelector('text') === null)).toBe(true);
      expect(document.querySelector('article')?.querySelector('svg')).toBeTruthy();
      for (const page of convert(html, `http://127.0.0.1/${file}`)) {
        expect(page.html).not.toMatch(/<svg\b/i);
        expect(page.markdown.length).toBeGreaterThan(500);
      }
    },
  );
});
