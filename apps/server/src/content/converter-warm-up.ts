import { convertFetched } from './convert-fetched.js';

/**
 * One section of a built-in documentation page: the kinds of element the
 * converter meets on real manuals (headings, prose with inline markup and
 * links, nested lists, a definition list, a code block with its language,
 * a table), numbered so that no two sections are the same text.
 */
function section(n: number): string {
  return `<div class="sect1"><h2 id="s${n}">${n}. Options of step ${n}</h2><div class="sectionbody">
<div class="paragraph"><p>Step ${n} reads the <em>configuration</em>, the <code>--option-${n}</code> flag and the
<a href="other-${n}.html">page it links to</a>, then writes its result. Each run keeps its own state, and a
failed run leaves the <strong>previous</strong> one untouched, as the <a href="#s${n + 1}">next section</a> explains.</p></div>
<div class="dlist"><dl><dt class="hdlist1">--option-${n}=&lt;value&gt;</dt><dd><p>Sets the value, which must be
positive; the default, ${n * 10}, suits most uses.</p></dd><dt class="hdlist1">--no-option-${n}</dt><dd><p>Turns it off.</p></dd></dl></div>
<div class="ulist"><ul><li><p>First item of ${n}, with <a href="https://example.org/${n}">a link</a>.</p>
<ol><li>nested one</li><li>nested two, with <code>code</code></li></ol></li><li><p>Second item of ${n}.</p></li></ul></div>
<div class="highlight-python notranslate"><div class="highlight"><pre><span class="k">def</span> <span class="nf">step_${n}</span>(value):
    <span class="k">return</span> value * ${n}  <span class="c1"># a comment</span>
</pre></div></div>
<div class="listingblock"><div class="content"><pre><code class="language-sh">$ tool step-${n} --option-${n}=3 &amp;&amp; echo done</code></pre></div></div>
<table class="tableblock"><thead><tr><th>Name</th><th>Value</th><th>Meaning</th></tr></thead><tbody>
<tr><td>alpha-${n}</td><td><code>${n}</code></td><td>The first, and the smallest, value.</td></tr>
<tr><td>beta-${n}</td><td><code>${n + 1}</code></td><td>The second value, with <a href="beta.html">its page</a>.</td></tr>
</tbody></table><p>See also <img src="figure-${n}.png" alt="Figure ${n}"/> and <kbd>Ctrl</kbd>+<kbd>C</kbd>.</p></div></div>`;
}

/** A page that marks no main content (the converter's picker chooses it), chrome around it. */
function unmarkedPage(sections: number): string {
  const body = Array.from({ length: sections }, (_, i) => section(i + 1)).join('\n');
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"/><title>tool-steps(1)</title>
<meta name="description" content="The steps of the tool."/></head><body class="manpage">
<div id="header"><h1>tool-steps(1) Manual Page</h1><div class="menu"><a href="index.html">Home</a> | <a href="all.html">All pages</a></div></div>
<div id="content">${body}</div>
<div id="footer"><div id="footer-text">Last updated 2026-01-01, <a href="about.html">about</a></div></div></body></html>`;
}

/** A page that marks its main content (`role="main"`), with a navigation sidebar beside it. */
function markedPage(sections: number): string {
  const body = Array.from({ length: sections }, (_, i) => section(i + 101)).join('\n');
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"/><title>The steps — Tool documentation</title>
<link rel="canonical" href="https://docs.example/steps.html"/></head><body>
<div class="related" role="navigation"><ul><li><a href="index.html">index</a></li><li><a href="modules.html">modules</a></li></ul></div>
<div class="document"><div class="body" role="main"><h1>The steps</h1>${body}</div></div>
<div class="sphinxsidebar" role="navigation"><h3>Table of contents</h3><ul><li><a href="#s101">Step 101</a></li><li><a href="#s102">Step 102</a></li></ul></div>
<div class="footer">© Copyright 2026. <a href="bugs.html">Found a bug?</a></div></body></html>`;
}

/** Sections per built-in page (~30 KB of HTML, a documentation page's size) and rounds over both pages. */
const WARM_UP_SECTIONS = 16;
const WARM_UP_ROUNDS = 3;

/** The built-in pages {@link warmUpConverter} converts, with the URLs it converts them at. */
export const WARM_UP_PAGES: readonly { finalUrl: string; body: string }[] = [
  { finalUrl: 'http://warm-up.invalid/tool-steps.html', body: unmarkedPage(WARM_UP_SECTIONS) },
  { finalUrl: 'http://warm-up.invalid/steps.html', body: markedPage(WARM_UP_SECTIONS) },
];

/**
 * Converts the built-in pages a few times, so that a converter thread's code
 * is compiled and optimised before its first real page. Run cold, the
 * converter takes several times as long on a crawl's first pages (a fresh
 * thread: 1.6–2.3 s for the Git manual's 205 pages in one pass, 0.6–0.9 s
 * for the same pages again), and a crawl's first pages are the ones every
 * other page waits behind (the start page, whose links are the next work).
 * Both pages take the light path (neither loads linkedom).
 */
export function warmUpConverter(): void {
  for (let round = 0; round < WARM_UP_ROUNDS; round += 1)
    for (const page of WARM_UP_PAGES)
      convertFetched({ kind: 'html', ...page, html: round === WARM_UP_ROUNDS - 1 });
}
