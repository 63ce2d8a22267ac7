import type { CheerioAPI } from 'cheerio';
import type { DomIndex } from './dom-index.js';
import type { EvidenceKind } from './evidence.js';
import { type FactNode, newNode } from './page-facts.js';
import { attrOf, closestWhere, collapse } from './text-utils.js';

/** Meta names that carry no page fact. */
const IGNORED = new Set([
  'viewport',
  'robots',
  'googlebot',
  'theme-color',
  'generator',
  'referrer',
  'format-detection',
  'card',
  'site',
  'creator:id',
  'app_id',
  'msapplication-tilecolor',
  'apple-mobile-web-app-capable',
  'csrf-token',
]);

/** Namespaced names: `og:title`, `DC.creator`, `dcterms.date`, `citation_author`, `parsely-author`. */
const NAMESPACED =
  /^(og|twitter|article|product|book|profile|dc|dcterms|citation|fb|music|video|parsely|sailthru)(?:[:.]|(?<=citation)_|(?<=parsely|sailthru)-)(.+)$/i;

/** A namespace's kind of evidence and its rank in the node (OpenGraph first, Twitter last). */
function evidenceOf(prefix: string): { evidence: EvidenceKind; rank: number } {
  if (['og', 'article', 'product', 'book', 'profile', 'citation', 'music', 'video'].includes(prefix))
    return { evidence: 'og', rank: 0 };
  if (prefix === 'dc' || prefix === 'dcterms') return { evidence: 'dc', rank: 1 };
  if (prefix === 'twitter') return { evidence: 'twitter', rank: 3 };
  return { evidence: 'meta-name', rank: 2 };
}

/** Plain names that are another name for a fact: the web application's name is the site's name. */
const RENAMED: Record<string, string> = {
  'application-name': 'site name',
  'apple-mobile-web-app-title': 'site name',
};

interface Found {
  rank: number;
  order: number;
  key: string;
  value: string;
  evidence: EvidenceKind;
}

/** One meta name read: its key without namespace, its kind of evidence; undefined for names that carry no fact. */
function readName(rawName: string, content: string, order: number): Found | undefined {
  const lower = rawName.toLowerCase();
  const renamed = RENAMED[lower];
  const match = renamed ? null : NAMESPACED.exec(rawName);
  const prefix = match ? (match[1] ?? '').toLowerCase() : '';
  const key = renamed ?? (match ? (match[2] ?? '') : rawName);
  if (prefix === 'fb' || IGNORED.has(key.toLowerCase()) || IGNORED.has(lower)) return undefined;
  const { evidence, rank } = evidenceOf(prefix);
  return { rank, order, key, value: content, evidence };
}

/**
 * Reads OpenGraph, Twitter, `article:*`, `product:*`, Dublin Core, Highwire
 * `citation_*`, Parse.ly and plain `<meta name>` tags into one node. Keys
 * lose their namespace (`og:title` → `title`, `product:price:amount` →
 * `price:amount`, `DC.creator` → `creator`); each entry keeps its kind of
 * evidence (`og`, `dc`, `meta-name`, `twitter`). Twitter's `label/data`
 * pairs become `label → data` entries. The canonical link and `<html lang>`
 * come last. (The document `<title>` is read by `read-document-title.ts`.)
 */
export function readMetaTags($: CheerioAPI, index: DomIndex): FactNode {
  const found: Found[] = [];
  const twitterLabels = new Map<string, string>();
  const twitterData = new Map<string, string>();
  let order = 0;
  for (const el of index.tag('meta')) {
    const $el = $(el);
    const content = collapse($el.attr('content') ?? '');
    if (!content || closestWhere(el, (n) => attrOf(n, 'itemscope') !== undefined)) continue;
    // RDFa lets one `property` hold several names ("dc:creator twitter:site_name").
    const names = ($el.attr('property') ?? '').split(/\s+/).filter(Boolean);
    const name = $el.attr('name')?.trim();
    if (names.length === 0 && name) names.push(name);
    for (const rawName of names) {
      const tag = readName(rawName, content, order++);
      if (!tag) continue;
      const pair = tag.evidence === 'twitter' ? /^(label|data)(\d)$/i.exec(tag.key) : null;
      if (pair)
        (pair[1]?.toLowerCase() === 'label' ? twitterLabels : twitterData).set(pair[2] ?? '', content);
      else found.push(tag);
    }
  }
  for (const [index, label] of twitterLabels) {
    const data = twitterData.get(index);
    if (data)
      found.push({ rank: 2, order: 10_000 + Number(index), key: label, value: data, evidence: 'label' });
  }
  found.sort((a, b) => a.rank - b.rank || a.order - b.order);

  const node = newNode('meta', 'meta-name');
  for (const f of found) node.entries.push({ key: f.key, value: f.value, evidence: f.evidence });
  const canonicalLink = index.tag('link').find((el) => attrOf(el, 'rel')?.toLowerCase() === 'canonical');
  const canonical = attrOf(canonicalLink, 'href')?.trim();
  if (canonical) node.entries.push({ key: 'url', value: canonical });
  const lang = attrOf(index.first('html'), 'lang')?.trim();
  if (lang) node.entries.push({ key: 'language', value: lang });
  return node;
}

/**
 * The page's language as a canonical BCP 47 tag: `<html lang>`, else
 * `og:locale` (`de_DE`), else `<meta http-equiv="content-language">`.
 * Undefined when none is stated or the tag is not a valid one.
 */
export function readLanguage(index: DomIndex): string | undefined {
  const html = index.first('html');
  const meta = (attr: string, value: string) =>
    attrOf(
      index.tag('meta').find((el) => attrOf(el, attr)?.toLowerCase() === value),
      'content',
    );
  const stated = [
    attrOf(html, 'lang'),
    attrOf(html, 'xml:lang'),
    meta('property', 'og:locale'),
    meta('http-equiv', 'content-language'),
  ];
  for (const raw of stated) {
    const tag = raw
      ?.trim()
      .split(/[,;\s]/)[0]
      ?.replace(/_/g, '-');
    if (!tag) continue;
    try {
      const [canonical] = Intl.getCanonicalLocales(tag);
      if (canonical) return canonical;
    } catch {
      // not a language tag: try the next statement
    }
  }
  return undefined;
}
