import type { CheerioAPI } from 'cheerio';
import type { DomIndex } from './dom-index.js';
import type { EvidenceKind } from './evidence.js';
import { type FactNode, newNode } from './page-facts.js';
import { parseDate } from './parse-date.js';
import { attrOf, BLOCK_TAGS, collapse, tagName } from './text-utils.js';

/** Adds one keyed statement to the structure node. */
export type AddStatement = (key: string, value: string | FactNode, evidence?: EvidenceKind) => void;

const SECTION_HEADINGS = new Set(['h2', 'h3', 'h4', 'h5', 'h6']);
/** Blocks never read as one short statement of text: lists, tables and figures have readers of their own, code is read whole (`soleCode`) or not at all. */
const STRUCTURED = new Set(['ul', 'ol', 'dl', 'table', 'pre', 'figure']);
const STRUCTURED_SELECTOR = [...STRUCTURED].join(', ');
/** A section this short is one statement ("Previous topic" → the topic's name), not prose. */
const SHORT_SECTION = 200;
/**
 * A code block up to this long under its own heading is one statement (a
 * manual's SYNOPSIS, a function's signature, about 25 lines at most), not a
 * listing. Code wraps its lines, so it has more room than prose.
 */
const SHORT_CODE = 2000;

/**
 * The text of a section's only code block: the block is a `<pre>`, or holds
 * one `<pre>` and no text besides it (AsciiDoc's `sectionbody` and
 * `verseblock` wrappers). Undefined when the section is anything else.
 */
function soleCode($: CheerioAPI, block: unknown): string | undefined {
  const $block = $(block as never);
  const pres = tagName(block) === 'pre' ? [block] : $block.find('pre').toArray();
  if (pres.length !== 1) return undefined;
  const text = $(pres[0] as never).text();
  const flat = collapse(text);
  return flat && flat === collapse($block.text()) ? codeLines(text) : undefined;
}

/**
 * Code as its lines: a multi-line SYNOPSIS is read line by line, so its
 * lines are kept (each without trailing spaces, the block without blank
 * lines around it and without the indentation all its lines share);
 * collapsing it ran `git add [--verbose | -v] …` and its continuation lines
 * into one.
 */
export function codeLines(text: string): string {
  const lines = text
    .replace(/\r\n?/g, '\n')
    .replace(/\u00a0/g, ' ')
    .split('\n')
    .map((l) => l.trimEnd());
  while (lines.length > 0 && lines[0] === '') lines.shift();
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  const indents = lines.filter((l) => l !== '').map((l) => /^[ \t]*/.exec(l)?.[0].length ?? 0);
  const shared = indents.length > 0 ? Math.min(...indents) : 0;
  return lines.map((l) => l.slice(shared)).join('\n');
}

/**
 * Short sections: a heading followed by a single short block and nothing
 * else before the next heading ("Previous topic" / its link, "NAME" / a
 * manual page's name line, "SYNOPSIS" / a manual's usage in one code
 * block). The heading is the value's label.
 */
export function readShortSections($: CheerioAPI, index: DomIndex, pageUrl: string, add: AddStatement): void {
  for (const heading of index.tags(SECTION_HEADINGS)) {
    const label = collapse($(heading).text());
    if (!label || label.length > 40) continue;
    const following = $(heading).nextAll().toArray();
    const end = following.findIndex((el) => SECTION_HEADINGS.has(tagName(el)) || tagName(el) === 'h1');
    const section = end < 0 ? following : following.slice(0, end);
    if (section.length !== 1) continue;
    // A heading over one code block names the code (SYNOPSIS, a signature): nothing else reads it as a value.
    const code = soleCode($, section[0]);
    if (code !== undefined) {
      if (code.length <= SHORT_CODE) add(label, code, 'code');
      continue;
    }
    if (!BLOCK_TAGS.has(tagName(section[0]))) continue;
    // Lists and tables have readers of their own (a list under a heading is its items, not one text); code mixed with text is no statement.
    if (STRUCTURED.has(tagName(section[0])) || $(section[0]).find(STRUCTURED_SELECTOR).length > 0) continue;
    const text = collapse($(section[0]).text());
    if (text && text.length <= SHORT_SECTION)
      add(label, linkedValue($, section[0], text, pageUrl), 'section');
  }
}

/** `git-commit(1)`, `ls(1)`, `printf(3p)`: a manual page's name and section, as its title states them. */
const MANUAL_TITLE = /^([\w.:+-]+)\((\d)[a-z]*\)(?:\s+manual page)?$/i;
/** The NAME line of a manual page: `name[, name…] - what it does`. */
const NAME_LINE = /^([\w.:+-]+(?:,\s*[\w.:+-]+)*)\s+[-–—]\s+(.+)$/u;

/**
 * A manual page (the HTML that man2html, AsciiDoc, mandoc and others make of
 * one): its title or heading `name(section)`, and its NAME section `name -
 * summary`. Sections 1, 6 and 8 document commands; the name is then also
 * the page's command.
 */
export function readManualPage($: CheerioAPI, index: DomIndex, titles: string[], add: AddStatement): void {
  let section: string | undefined;
  let name: string | undefined;
  for (const title of titles) {
    const m = MANUAL_TITLE.exec(collapse(title));
    if (m?.[1] && m[2]) {
      name = m[1];
      section = m[2];
      break;
    }
  }
  if (!section || !name) return;
  add('manual section', section, 'manual');
  const isCommand = ['1', '6', '8'].includes(section);
  for (const heading of index.tags(SECTION_HEADINGS)) {
    if (collapse($(heading).text()).toUpperCase() !== 'NAME') continue;
    const line = collapse($(heading).next().text());
    const m = NAME_LINE.exec(line);
    if (!m?.[1] || !m[2]) continue;
    const first = m[1].split(',')[0]!.trim();
    add('name', first, 'manual');
    if (isCommand) add('command', first, 'manual');
    add('summary', m[2], 'manual');
    return;
  }
  add('name', name, 'manual');
  if (isCommand) add('command', name, 'manual');
}

/** A version number: digits and dots, two parts at least (`3.11.2`, `v2.39.5`), not part of a longer number or date. */
const VERSION = /(?<![\w.,/-])v?(\d+\.\d+(?:\.\d+){0,3})(?![\w.,/-]*\d)/giu;
/** A price's sign or code before a number: `$19.99` is not a version. */
const MONEY_BEFORE = /(?:[$€£¥₹]|\b[A-Z]{3})\s?$/u;

/**
 * Facts a page's title or headline states about the page: the one version
 * number it names ("Python 3.11.2 documentation", "SQLite Release 3.25.0
 * On 2018-09-15") and the one date. Several different ones state nothing.
 */
export function readTitleFacts(titles: string[], add: AddStatement): void {
  const versions = new Set<string>();
  const dates = new Set<string>();
  for (const title of titles) {
    const text = collapse(title);
    for (const m of text.matchAll(VERSION)) {
      if (m[1] && !MONEY_BEFORE.test(text.slice(0, m.index))) versions.add(m[1]);
    }
    const date = /\b\d{4}-\d{2}-\d{2}\b/.exec(text)?.[0];
    if (date && parseDate(date)) dates.add(date);
  }
  if (versions.size === 1) add('version', [...versions][0]!, 'headline');
  if (dates.size === 1) add('date', [...dates][0]!, 'headline');
}

/** "Last updated on October 7, 2026", "Released 2024-05-31", "Modified: …": a date stated with a word for what it dates. */
const DATE_STATEMENT =
  /^((?:last\s+)?(?:updated|modified|changed|published|released|posted|created|generated|built))(?:\s+(?:on|at))?\s*[:：]?\s+(.{6,80})$/iu;

/**
 * A date stated in a sentence rather than a "Label: value" line ("Last
 * updated on October 07, 2026. Found a bug?"): keyed by its words, the date
 * up to the end of its sentence. Only when the words are followed by a date.
 */
export function readDateStatement(line: string, add: AddStatement): boolean {
  const m = DATE_STATEMENT.exec(line);
  if (!m?.[1] || !m[2]) return false;
  const value = m[2].split(/(?<=[.!?])\s+(?=\p{Lu})/u)[0]!.trim();
  if (!parseDate(value)) return false;
  add(m[1], value);
  return true;
}

/**
 * A stated value as found in its element: when the element's only link has
 * the value as its text ("Source code: <a href=…>Lib/json</a>"), the value
 * names what the link points at, and is read as a node with its `name` and
 * its absolute `url` (a URL property takes the link, a text one the name);
 * otherwise the text itself.
 */
export function linkedValue(
  $: CheerioAPI,
  element: unknown,
  value: string,
  pageUrl: string,
): string | FactNode {
  const links = $(element as never)
    .find('a[href]')
    .toArray();
  if (links.length !== 1) return value;
  const text = collapse($(links[0]).text());
  const href = attrOf(links[0], 'href')?.trim();
  if (!href || !text || text !== collapse(value) || /^(?:javascript|mailto|tel):/i.test(href)) return value;
  let url: string;
  try {
    url = new URL(href, pageUrl).toString();
  } catch {
    return value;
  }
  const node = newNode('structure', 'label');
  node.entries.push({ key: 'name', value: text }, { key: 'url', value: url });
  return node;
}
