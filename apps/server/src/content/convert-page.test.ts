import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertPage, convertWithReadability } from './convert-page.js';

const ARTICLE = readFileSync(new URL('./fixtures/article.html', import.meta.url), 'utf8');
const PAGE_URL = 'https://docs.example.com/guides/event-loop?ref=home';

describe('convertPage on a realistic article page', () => {
  const page = convertPage(ARTICLE, PAGE_URL);

  it('takes the title from og:title', () => {
    expect(page.title).toBe('Understanding Event Loops');
  });

  it('resolves the canonical URL against <base href>', () => {
    expect(page.canonicalUrl).toBe('https://docs.example.com/guides/event-loop');
  });

  it('lists every http(s) link of the whole page, absolute, without fragments, deduplicated, in order', () => {
    expect(page.links).toEqual([
      'https://docs.example.com/',
      'https://docs.example.com/guides/',
      'https://docs.example.com/api/',
      'https://blog.example.com/', // rel=nofollow is kept
      'https://docs.example.com/guides/timers.html', // relative to <base>, #intro dropped
      'https://docs.example.com/api/loop',
      'https://docs.example.com/guides/faq',
      'https://docs.example.com/guides/streams.html',
      'https://docs.example.com/privacy',
      'https://docs.example.com/terms',
    ]);
    expect(page.links.some((l) => l.startsWith('javascript:') || l.startsWith('mailto:'))).toBe(false);
  });

  it('lists h1–h3 headings of the content, not of the chrome', () => {
    expect(page.headings).toEqual([
      'Understanding Event Loops',
      'Phases of the loop',
      'A small example',
      'Comparison',
    ]);
  });

  it('keeps the article and drops navigation, aside, footer, scripts and styles', () => {
    for (const format of [page.markdown, page.text, page.html]) {
      expect(format).toContain('event loop');
      expect(format).toContain('Never block the event loop.');
      expect(format).not.toContain('API reference');
      expect(format).not.toContain('Related guides');
      expect(format).not.toContain('Privacy');
      expect(format).not.toContain('analytics');
      expect(format).not.toContain('font-family');
    }
  });

  it('writes Markdown with headings, lists, fenced code with its language, tables and absolute links', () => {
    expect(page.markdown).toMatch(/^# \S/); // the page's h1 on top, even where Readability dropped it
    expect(page.markdown).toContain('## Phases of the loop');
    expect(page.markdown).toMatch(/1\. Timers\n2\. Pending callbacks/);
    expect(page.markdown).toContain(
      "```js\nsetTimeout(() => console.log('timeout'), 0);\nPromise.resolve().then(() => console.log('microtask'));\nconsole.log('sync');\n```",
    );
    expect(page.markdown).toMatch(/\| Queue\s+\| Runs\s+\|/);
    expect(page.markdown).toMatch(/\| Microtasks \| After each callback \|/);
    expect(page.markdown).toContain('[timers guide](https://docs.example.com/guides/timers.html#intro)');
    expect(page.markdown).toContain('[loop API](https://docs.example.com/api/loop)');
    expect(page.markdown).toContain('![Diagram of the loop phases](https://docs.example.com/img/loop.png)');
    expect(page.markdown).toContain('> Never block the event loop.');
    expect(page.markdown).toContain('**event loop**');
  });

  it('writes plain text one block per line, whitespace collapsed, code kept, cells tab-separated', () => {
    expect(page.text).toContain(
      'An event loop waits for events and dispatches them to handlers. This guide explains how the loop schedules macrotasks',
    );
    expect(page.text).toContain('\n\nPhases of the loop\n\n');
    expect(page.text).toContain('Timers\nPending callbacks\nPoll\nCheck');
    expect(page.text).toContain("console.log('sync');");
    expect(page.text).toContain('Queue\tRuns\nMicrotasks\tAfter each callback');
    expect(page.text).not.toMatch(/ {2,}/);
    expect(page.text).not.toMatch(/\n{3,}/);
    expect(page.text).not.toContain('<');
  });

  it('gives the main content as clean HTML with lower-case tags and absolute URLs', () => {
    expect(page.html).toMatch(/^<article>/);
    expect(page.html).toContain('<a href="https://docs.example.com/api/loop">loop API</a>');
    expect(page.html).toContain('<code class="language-js">');
    expect(page.html).not.toMatch(/<\/?[A-Z]/);
    expect(page.html).not.toContain('<script');
  });
});

describe('convertPage on small and odd pages', () => {
  it('falls back to the body for a short page Readability would not pick', () => {
    const page = convertPage(
      '<html><head><title>Tiny</title></head><body><nav><a href="/x">Menu</a></nav><h1>Hello</h1><p>Short page.</p></body></html>',
      'https://example.com/tiny',
    );
    expect(page.title).toBe('Tiny');
    expect(page.markdown).toBe('# Hello\n\nShort page.');
    expect(page.text).toBe('Hello\n\nShort page.');
    expect(page.links).toEqual(['https://example.com/x']);
  });

  it('prefers <main> in the fallback', () => {
    const page = convertPage(
      '<body><header>Site name</header><main><p>Only this.</p></main><footer>Footer</footer></body>',
      'https://example.com/',
    );
    expect(page.text).toBe('Only this.');
  });

  it('falls back to <title>, then <h1>, then null for the title', () => {
    expect(convertPage('<title> A  title </title><p>x</p>', 'https://e.com/').title).toBe('A title');
    expect(convertPage('<h1>Heading <b>one</b></h1>', 'https://e.com/').title).toBe('Heading one');
    expect(convertPage('<p>no title</p>', 'https://e.com/').title).toBeNull();
  });

  it('resolves links against the page URL without <base>, and a relative <base> against the page', () => {
    const noBase = convertPage(
      '<a href="b/c">c</a><a href="//cdn.example.org/x">x</a>',
      'https://e.com/a/page',
    );
    expect(noBase.links).toEqual(['https://e.com/a/b/c', 'https://cdn.example.org/x']);
    const relativeBase = convertPage('<base href="/root/"><a href="d">d</a>', 'https://e.com/a/page');
    expect(relativeBase.links).toEqual(['https://e.com/root/d']);
  });

  it('skips non-http links and keeps canonical null when absent', () => {
    const page = convertPage(
      '<a href="mailto:a@b.c">m</a><a href="javascript:go()">j</a><a href="tel:123">t</a><a href="ftp://x/">f</a><a href="#top">top</a><a href="">self</a>',
      'https://e.com/p',
    );
    expect(page.links).toEqual(['https://e.com/p']);
    expect(page.canonicalUrl).toBeNull();
  });

  it.each([
    '',
    'plain words, no tags',
    '<div><p>unclosed <b>bold <i>both</div></b>',
    '<<<>>><p>weird</p><//x><!-- unterminated',
    '<html><body><table><tr><td>cell<td>cell2</table><ul><li>one<li>two</ul></body>',
    '<html><head><title>T</title></head><p>no body tag</p></html><p>after html</p>',
    '\u0000\uffff<svg><foreignObject><p>x</p></foreignObject></svg>',
  ])('does not throw on malformed input %#', (html) => {
    const page = convertPage(html, 'https://e.com/');
    expect(typeof page.markdown).toBe('string');
    expect(typeof page.text).toBe('string');
    expect(Array.isArray(page.links)).toBe(true);
  });

  it('keeps content that sits outside an explicit <body>', () => {
    const page = convertPage(
      '<html><head><title>T</title></head><p>no body tag</p></html>',
      'https://e.com/',
    );
    expect(page.text).toBe('no body tag');
  });

  it('turns lang-x on <pre> into a fenced language', () => {
    const page = convertPage('<pre class="lang-python"><code>print("hi")\n</code></pre>', 'https://e.com/');
    expect(page.markdown).toBe('```python\nprint("hi")\n```');
  });

  it("puts the page's heading on top when the content leaves it out, though a code block holds a '# ' line", () => {
    // Git's manual pages: the <h1> sits in a header outside the content, and shell or config
    // examples hold "# comment" lines. Such a line counted as the heading, so none was added.
    const prose =
      '<p>Git is a fast, scalable, distributed revision control system with an unusually rich command set that provides both high-level operations and full access to internals.</p>'.repeat(
        4,
      );
    const html = `<!DOCTYPE html><html><head><title>git-config(1)</title></head><body>
<div id="header"><h1>git-config(1) Manual Page</h1></div>
<div id="content"><h2>SYNOPSIS</h2>${prose}
<pre><code># This is the config file, and
# a '#' or ';' character indicates a comment
[core]
	filemode = false</code></pre>${prose}</div></body></html>`;
    for (const page of [
      convertPage(html, 'https://e.com/'),
      convertWithReadability(html, 'https://e.com/', {}),
    ]) {
      expect(page.markdown.startsWith('# git-config(1) Manual Page\n\n## SYNOPSIS\n\n')).toBe(true);
      expect(page.markdown).toContain('```\n# This is the config file, and\n');
    }
    // A heading of its own, outside code, is kept and none is added.
    const own = convertPage('<main><h1>Own</h1><p>text</p><pre># note</pre></main>', 'https://e.com/');
    expect(own.markdown).toBe('# Own\n\ntext\n\n```\n# note\n```');
  });

  it('reads CR LF and lone CR line breaks as LF, as a browser does (the HTML parser normalises newlines)', () => {
    // Git's manual pages are written with CR LF: their <pre> synopses kept the CR in every format.
    const lines = ['git log [&lt;options&gt;]', '        [&lt;revision-range&gt;]'];
    const read = ['git log [<options>]', '        [<revision-range>]'];
    const html = `<!DOCTYPE html>\r\n<html><head><title>git-log(1)</title></head>\r\n<body>\r\n<main>\r\n<h1>git-log(1)</h1>\r\n<p>Shows the commit logs\r\nof a repository,\rone line\r\nat a time.</p>\r\n<pre><code>${lines.join('\r\n')}\r\n</code></pre>\r\n<p title="a\r\nb">End.</p>\r\n</main>\r\n</body></html>\r\n`;
    const fragment = `<p>Shows the commit logs\r\nof a repository.</p><pre>${lines.join('\r\n')}\r</pre>`;
    for (const page of [
      convertPage(html, 'https://e.com/'),
      convertWithReadability(html, 'https://e.com/', {}),
      convertPage(fragment, 'https://e.com/'),
    ]) {
      for (const format of [page.markdown, page.text, page.html]) expect(format).not.toContain('\r');
      expect(page.markdown).toContain(`\`\`\`\n${read.join('\n')}\n\`\`\``);
      expect(page.text).toContain(read.join('\n'));
    }
  });
});

/** A documentation page of about `kilobytes` KB: chrome plus many sections with links, code and tables. */
function bigPage(kilobytes: number): string {
  const sections: string[] = [];
  let size = 0;
  for (let i = 0; size < kilobytes * 1024; i += 1) {
    const section = `<section id="s${i}"><h2>Section ${i}</h2>
<p>Paragraph ${i} explains <a href="/docs/${i}">topic ${i}</a> with <strong>emphasis</strong>, <em>style</em> and
<code>inline_code(${i})</code>; it is long enough to look like real prose written by a person about the subject.</p>
<ul><li><a href="/ref/${i}/a">Reference A</a></li><li><a href="/ref/${i}/b">Reference B</a></li></ul>
<pre><code class="language-ts">const value${i} = compute(${i});\nconsole.log(value${i});</code></pre>
<table><tr><th>Key</th><th>Value</th></tr><tr><td>k${i}</td><td>v${i}</td></tr></table></section>\n`;
    sections.push(section);
    size += section.length;
  }
  const nav = Array.from({ length: 60 }, (_, i) => `<li><a href="/nav/${i}">Nav ${i}</a></li>`).join('');
  return `<!doctype html><html><head><title>Big</title></head><body><nav><ul>${nav}</ul></nav>
<main><article><h1>Big page</h1>${sections.join('')}</article></main><footer>Footer</footer></body></html>`;
}

describe('convertPage on a large page', () => {
  it('converts a 200 KB page completely', () => {
    const html = bigPage(200);
    const page = convertPage(html, 'https://e.com/'); // also warms the JIT
    expect(page.markdown).toContain('## Section 0');
    expect(page.markdown).toContain('```ts\nconst value1 = compute(1);\nconsole.log(value1);\n```');
    expect(page.markdown).not.toContain('Nav 1');
    expect(page.links.length).toBeGreaterThan(1000);
  });
});

describe('convertPage on hostile structure', () => {
  it('survives nesting deeper than the call stack', () => {
    const depth = 20_000;
    const html = `<body>${'<div>'.repeat(depth)}deep text${'</div>'.repeat(depth)}<p>after</p></body>`;
    const page = convertPage(html, 'https://e.com/');
    expect(page.text).toContain('deep text');
    expect(page.text).toContain('after');
  });
});

describe('convertPage on real pages that mark their content (Python manual)', () => {
  const root = '/usr/share/doc/python3.11/html';
  const files = (readdirSync(root, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.html'))
    .sort();
  // A spread of the manual (every 25th page), not a picked few.
  const sample = files.filter((_, i) => i % 25 === 0);

  it.each(sample)('%s: the one-parse light tree gives what the linkedom path gives', (file) => {
    const html = readFileSync(join(root, file), 'utf8');
    const url = `http://127.0.0.1/${file}`;
    const light = convertPage(html, url, { html: false });
    const linkedom = convertWithReadability(html, url, { html: false });
    // `article` too: absent on both where the mark was taken, Readability's on both where it was too short.
    for (const key of ['title', 'markdown', 'text', 'links', 'canonicalUrl', 'headings', 'article'] as const)
      expect(light[key], key).toEqual(linkedom[key]);
    expect(light.markdown.length).toBeGreaterThan(0);
  });
});

describe('convertPage on a <nav> inside the content the page marks', () => {
  const url = 'https://e.com/guide.html';
  const prose = (what: string) =>
    `Prose of the ${what} section, long enough to read as a paragraph. `.repeat(5);
  /** A page marking its content, with a site menu outside it and `nav` at the top of the content. */
  const page = (nav: string, outside = '<nav><a href="/">Home</a> <a href="/docs/">Docs</a></nav>') =>
    `<!doctype html><html><head><title>Guide</title></head><body>${outside}
<main><h1>Guide</h1>${nav}<section id="one"><h2>One</h2><p>${prose('first')}</p></section>
<section id="two"><h2>Two</h2><p>${prose('second')}</p></section></main></body></html>`;
  const contents =
    '<nav class="contents"><p class="topic-title">Contents</p><ul><li><a href="#one">One</a></li><li><a href="#two">Two</a></li></ul></nav>';
  const paths = [
    ['light tree', convertPage],
    ['linkedom', convertWithReadability],
  ] as const;

  it.each(paths)(
    '%s: keeps a table of contents whose links all lead into the page (as Readability does)',
    (_, convert) => {
      const { markdown, text } = convert(page(contents), url, {});
      expect(markdown).toContain(
        'Contents\n\n- [One](https://e.com/guide.html#one)\n- [Two](https://e.com/guide.html#two)',
      );
      expect(text).toContain('Contents');
      expect(markdown).not.toContain('Home'); // the site menu outside the content is still navigation
    },
  );

  it.each(paths)(
    '%s: drops a <nav> in the content that leads to other pages, or holds one in-page link',
    (_, convert) => {
      const pager = '<nav><a href="#one">One</a> <a href="/prev.html">Previous page</a></nav>';
      const skip = '<nav><a href="#two">Skip to the second section</a></nav>';
      for (const nav of [pager, skip]) {
        const { markdown } = convert(page(nav), url, {});
        expect(markdown).toContain('## One');
        expect(markdown).not.toMatch(/Previous page|Skip to/);
      }
    },
  );

  it.each(paths)(
    '%s: drops a <nav> of in-page links outside the content (a one-page site menu)',
    (_, convert) => {
      const menu = '<nav><a href="#one">Go to one</a> <a href="#two">Go to two</a></nav>';
      const { markdown } = convert(page('', menu), url, {});
      expect(markdown).toContain('## Two');
      expect(markdown).not.toContain('Go to');
    },
  );

  it("keeps the Python manual's in-page contents (faq/design.html)", () => {
    const file = '/usr/share/doc/python3.11/html/faq/design.html';
    const { markdown } = convertPage(readFileSync(file, 'utf8'), 'http://127.0.0.1/faq/design.html', {
      html: false,
    });
    expect(markdown).toMatch(
      /\nContents\n\n- \[Design and History FAQ\]\(http:\/\/127\.0\.0\.1\/faq\/design\.html#design-and-history-faq\)\n {2}- \[Why does Python use indentation/,
    );
  });
});
