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

/**
 * A section of the less common branches the writers take on real manuals,
 * which the sections above never reach: text with Markdown's special
 * characters to escape (`_`, `*`, brackets, backticks), lines broken by
 * `<br>`, a paragraph that starts like a list, entities and non-ASCII text,
 * inline code holding a backtick, a hidden element, a note laid out as a
 * table (a cell with blocks, `|`, `colspan`), a block quote, a rule, list
 * items holding several blocks, a numbered list with a start, a `<pre>`
 * without `<code>` (trailing blank lines), links without a target, with
 * spaces or parentheses in it, or into the page. Code first met in a crawl
 * is compiled then, and code compiled on feedback that never saw these
 * branches is thrown away and compiled again when a page reaches them
 * (seen in a fresh server's Git crawl: the Markdown writer's functions
 * deoptimised and compiled 3-4 times each, on V8's helper threads).
 */
function edgeSection(n: number): string {
  return `<div class="sect1"><h2 id="s${n}">${n}. Edge cases of <code>step_${n}</code></h2><div class="sectionbody">
<div class="sect2"><h3 id="e${n}">${n}.1. Escapes and breaks</h3>
<div class="paragraph"><p>Names like <code>foo_bar_${n}</code>, snake_case_${n} words, a *star*, [brackets] and a \`tick\` are
escaped; it&#8217;s &#8220;quoted&#8221; &#8230; &#x2014; &amp;&nbsp;&copy; 3 &lt; 4.<br>
1. a line that starts like a list,<br/>and a third line after a break.</p></div>
<div class="paragraph"><p>- a paragraph that starts like a list, with a <a href="other (${n}).html">link with parentheses</a>,
<a href="other ${n}.html">one with a space</a>, <a>one without a target</a>, <a href="#e${n}">one into the page</a>
and <a href="../up/${n}.html"><em>an emphasised</em> one</a>, <a href='query.html?a=${n}&amp;b=2#e${n}' title=quoted>one with a query</a>.</p></div>
<div style="display: none">Hidden text ${n}.</div><div class="admonitionblock note"><table><tr><td class="icon"><div class="title">Note</div></td>
<td class="content"><div class="paragraph"><p>A note in a cell, a | b, first block.</p></div><div class="paragraph"><p>Second block.</p></div></td></tr>
<tr><td colspan="2">A wide cell<br>on two lines.</td></tr></table></div>
<blockquote><p>Quoted text of ${n}.</p><p>Its second paragraph.</p></blockquote><hr/>
<h4>${n}.1.1. Minor heading</h4><p>Code with a backtick: <code>a\`b</code>, <tt>tt</tt>, <b>bold</b>, <i>italic</i>, <sup>[${n}]</sup>,
<span class="monospaced">mono</span>, <del>gone</del>, <var>x</var>, <samp>out</samp>.</p>
<div class="olist arabic"><ol class="arabic" start="${n}"><li><p>An item with two paragraphs.</p><p>Its second paragraph,<br>on two lines.</p>
<div class="literalblock"><div class="content"><pre>literal in an item
   indented    line</pre></div></div></li><li>plain item<ul><li>deep item</li></ul></li></ol></div>
<div class="verseblock"><pre class="content">verse line one
   indented line    with spaces


</pre></div></div></div></div>`;
}

/** Every fourth section of a page is one of {@link edgeSection}'s, the others {@link section}'s. */
function sectionOf(n: number): string {
  return n % 4 === 0 ? edgeSection(n) : section(n);
}

/**
 * A page that marks no main content (the converter's picker chooses it), chrome around it, and
 * what generated XHTML pages start with (an XML declaration, a style sheet and a script in the
 * head, entities in the title, a comment): the tokenizer's states for these are warmed too.
 */
function unmarkedPage(sections: number): string {
  const body = Array.from({ length: sections }, (_, i) => sectionOf(i + 1)).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"/><title>tool-steps(1) &#8212; steps &amp; options</title>
<meta name="description" content="The steps of the tool."/><style type="text/css">p { margin: 0 } a > b { color: red }</style>
<script type="text/javascript">if (a < b && c > d) { document.title = '<p>'; }</script></head><body class="manpage">
<!-- a comment, as generators leave them -->
<div id="header"><h1>tool-steps(1) Manual Page</h1><div class="menu"><a href="index.html">Home</a> | <a href="all.html">All pages</a></div></div>
<div id="content">${body}</div>
<div id="footer"><div id="footer-text">Last updated 2026-01-01, <a href="about.html">about</a></div></div></body></html>`;
}

/**
 * A page that marks its main content (`role="main"`), with a navigation sidebar beside it, and
 * inside the content what the clean-up decides on: an in-page table of contents (a `<nav>`),
 * asides (one mostly links), hidden elements and an icon.
 */
function markedPage(sections: number): string {
  const body = Array.from({ length: sections }, (_, i) => sectionOf(i + 101)).join('\n');
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"/><title>The steps — Tool documentation</title>
<link rel="canonical" href="https://docs.example/steps.html"/></head><body>
<div class="related" role="navigation"><ul><li><a href="index.html">index</a></li><li><a href="modules.html">modules</a></li></ul></div>
<div class="document"><div class="body" role="main"><h1>The steps<a class="headerlink" href="#the-steps" title="Link to this heading">¶</a></h1>
<nav class="contents" id="contents"><p class="topic-title">Contents</p><ul><li><a class="reference internal" href="#s101">Step 101</a></li>
<li><a class="reference internal" href="#s104">Edge cases</a></li></ul></nav>
<aside class="sidebar"><p class="sidebar-title">Aside</p><p>A side note with <a href="notes.html">a link</a> and more words than links in it.</p></aside>
<aside class="related"><a href="a.html">a</a> <a href="b.html">b</a></aside><span aria-hidden="true">⚓</span><div hidden>Hidden.</div>
<svg class="icon" viewBox="0 0 16 16"><path d="M0 0h16v16H0z"/></svg>${body}</div></div>
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
      convertFetched({ kind: 'html', ...page, html: round === WARM_UP_ROUNDS - 1, words: true });
}
