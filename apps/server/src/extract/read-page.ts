import { load } from 'cheerio';
import { type ArticleMetadata, READABILITY_LIMITS } from '../readability.js';
import { DomIndex } from './dom-index.js';
import { type FactNode, isNode, newNode, type PageFacts, valuesOf } from './page-facts.js';
import { readDocumentTitle } from './read-document-title.js';
import { nodesFromJson, readJsonLd } from './read-jsonld.js';
import { readLanguage, readMetaTags } from './read-meta-tags.js';
import { readMicrodata } from './read-microdata.js';
import { readRdfa } from './read-rdfa.js';
import { readArticle, readabilityNode } from './read-readability.js';
import { readStructure } from './read-structure.js';
import { attrOf, closestWhere, collapse, tagName } from './text-utils.js';

/**
 * Parses a page once and reads every source of evidence from it: JSON-LD,
 * microdata, RDFa, meta tags, the document title, then the visible structure
 * (which drops scripts from the parsed tree, so it runs last). Readability's
 * reading is the one given (`article`, made by the content converter), or,
 * when none was given, made here.
 */
export function readPageFacts(html: string, url: string, article?: ArticleMetadata | null): PageFacts {
  const json = parseJsonBody(html);
  if (json !== undefined) {
    // A JSON body (an API response kept as text): its objects are the structured items.
    return {
      url,
      lang: undefined,
      jsonld: nodesFromJson(json),
      microdata: [],
      rdfa: [],
      meta: newNode('meta', 'meta-name'),
      document: newNode('document', 'title-whole'),
      readability: undefined,
      structure: newNode('structure', 'label'),
      tables: [],
      text: html,
    };
  }
  // htmlparser2 in HTML mode: several times faster than parse5 and as good for reading facts.
  const $ = load(html, { xml: { xmlMode: false, decodeEntities: true } });
  const jsonld = readJsonLd($);
  // Everything below reads the page without its scripts, styles and embedded documents.
  $('script, style, noscript, template, svg, iframe').remove();
  const index = new DomIndex($);
  dropPermalinks($, index);
  const microdata = readMicrodata($, index);
  const rdfa = readRdfa($, index);
  const meta = readMetaTags($, index);
  const lang = readLanguage(index) ?? jsonLanguage(jsonld);
  const titleElement = index.first('title');
  const rawTitle = titleElement ? $(titleElement).text() : '';
  const siteItems = websiteNames([...jsonld, ...microdata, ...rdfa]);
  const statedSiteNames = [...valuesOf(meta, 'site_name'), ...valuesOf(meta, 'site name'), ...siteItems];
  const document = readDocumentTitle(
    rawTitle,
    statedSiteNames.filter((v) => typeof v === 'string'),
  );
  for (const name of siteItems)
    document.entries.push({ key: 'site name', value: name, evidence: 'site-item' });
  const reading = article === undefined ? (readableSize(index) ? readArticle(html) : null) : article;
  const statedTitles = [...valuesOf(meta, 'title'), ...valuesOf(document, 'title')].filter(
    (v): v is string => typeof v === 'string',
  );
  const { structure, tables, text } = readStructure($, index, url, statedTitles);
  return {
    url,
    lang,
    jsonld,
    microdata,
    rdfa,
    meta,
    document,
    readability: reading ? unstatedExcerpt(unreadTitle(readabilityNode(reading), rawTitle), meta) : undefined,
    structure,
    tables,
    text,
  };
}

/** Separators Readability 0.6 does not split a `<title>` at (it knows `|`, `-`, `\`, `/`, `>`, `»`). */
const UNKNOWN_SEPARATOR = /\s[–—·•›]\s/u;

/**
 * Readability 0.6 leaves a `<title>` whose parts are separated by `–`, `—`
 * or `·` as it is: where its title is such a `<title>` untouched, it has not
 * read it, and its title counts as the `<title>` itself (the same evidence as
 * the document title), not as a reading of its own.
 */
function unreadTitle(reading: FactNode, rawTitle: string): FactNode {
  const title = comparable(rawTitle);
  if (!UNKNOWN_SEPARATOR.test(rawTitle)) return reading;
  for (const entry of reading.entries) {
    if (entry.key === 'title' && typeof entry.value === 'string' && comparable(entry.value) === title)
      entry.evidence = 'title-whole';
  }
  return reading;
}

const comparable = (text: string) => collapse(text).toLowerCase();

/**
 * Readability's excerpt is the page's description when the page states one
 * (a meta description, already read from the meta tags) and otherwise its
 * first paragraph: a paragraph found by position, not a summary the page
 * gives, so it counts as a pattern, not as Readability's reading.
 */
function unstatedExcerpt(reading: FactNode, meta: FactNode): FactNode {
  const stated = new Set(
    meta.entries
      .filter((e) => e.key.toLowerCase() === 'description' && typeof e.value === 'string')
      .map((e) => comparable(e.value as string)),
  );
  for (const entry of reading.entries) {
    if (
      entry.key === 'description' &&
      typeof entry.value === 'string' &&
      !stated.has(comparable(entry.value))
    )
      entry.evidence = 'pattern';
  }
  return reading;
}

/** The names of the page's `WebSite` items (also nested ones: `isPartOf`): statements of the site's name. */
function websiteNames(items: FactNode[]): string[] {
  const names: string[] = [];
  const walk = (node: FactNode, depth: number) => {
    if (node.types.includes('WebSite')) {
      const name = valuesOf(node, 'name')[0];
      if (typeof name === 'string' && collapse(name)) names.push(collapse(name));
    }
    if (depth < 2) for (const e of node.entries) if (isNode(e.value)) walk(e.value, depth + 1);
  };
  for (const item of items) walk(item, 0);
  return [...new Set(names)];
}

function jsonLanguage(items: FactNode[]): string | undefined {
  for (const item of items) {
    const value = valuesOf(item, 'inLanguage')[0];
    if (typeof value !== 'string') continue;
    try {
      return Intl.getCanonicalLocales(value.replace(/_/g, '-'))[0];
    } catch {
      // not a language tag
    }
  }
  return undefined;
}

/** Whether the page is small and shallow enough for Readability (see {@link READABILITY_LIMITS}). */
function readableSize(index: DomIndex): boolean {
  if (index.all.length > READABILITY_LIMITS.maxElements) return false;
  for (const el of index.all) {
    // Only leaves can be the deepest; the walk up is bounded by the limit.
    if ((el as { children?: unknown[] }).children?.length) continue;
    let depth = 0;
    for (let n = el as { parent?: unknown } | undefined; n; n = n.parent as { parent?: unknown } | undefined)
      if (++depth > READABILITY_LIMITS.maxDepth) return false;
  }
  return true;
}

function parseJsonBody(body: string): unknown {
  const start = body.trimStart()[0];
  if (start !== '{' && start !== '[') return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** A permalink's mark: a sign, not a word ("#", "¶", "§", a link symbol). */
const PERMALINK_MARK = /^[#¶§🔗⚓]$/u;
/** Where documentation generators put a permalink to the element itself. */
const PERMALINK_HOLDERS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'dt', 'caption']);

/**
 * Drops the permalink marks documentation generators append to headings
 * and terms (Sphinx's "¶", Node.js's "#", MkDocs' "¶"): a link within the
 * page whose text is one sign. They are no part of the heading's text, and
 * kept they ended labels ("File paths#") and signatures (`json.dumps(obj)¶`).
 * Found through the index (a selector over the page cost 40 ms on a large
 * one) and taken out of the tree; the index keeps them, detached, which no
 * reader of links minds (their address is within the page).
 */
function dropPermalinks($: ReturnType<typeof load>, index: DomIndex): void {
  for (const a of index.tag('a')) {
    if (!attrOf(a, 'href')?.startsWith('#')) continue;
    const kids = (a as { children?: { type?: string; data?: string }[] }).children ?? [];
    const only = kids.length === 1 && kids[0]?.type === 'text' ? kids[0].data?.trim() : undefined;
    if (!only || !PERMALINK_MARK.test(only)) continue;
    if (closestWhere(a, (n) => PERMALINK_HOLDERS.has(tagName(n)), true)) $(a).remove();
  }
}
