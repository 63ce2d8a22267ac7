import type { CheerioAPI } from 'cheerio';
import { type FactNode, newNode } from './page-facts.js';
import { collapse } from './text-utils.js';

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

/** Prefix → rank: OpenGraph and its namespaces first, plain names next, Twitter last (it mostly repeats OpenGraph). */
function rankOf(prefix: string): number {
  if (
    prefix === 'og' ||
    prefix === 'article' ||
    prefix === 'product' ||
    prefix === 'book' ||
    prefix === 'profile'
  )
    return 0;
  if (prefix === 'twitter') return 2;
  return 1;
}

/**
 * Reads OpenGraph, Twitter, `article:*`, `product:*`, Dublin Core and plain
 * `<meta name>` tags into one node. Keys lose their namespace (`og:title` →
 * `title`, `product:price:amount` → `price:amount`, `DC.date` → `date`);
 * Twitter's `label1`/`data1` pairs become `label → data` entries. The
 * canonical link and `<html lang>` come last. (The document `<title>`,
 * which usually carries the site's name, is read with the visible structure.)
 */
export function readMetaTags($: CheerioAPI): FactNode {
  const found: { rank: number; order: number; key: string; value: string }[] = [];
  const twitterLabels = new Map<string, string>();
  const twitterData = new Map<string, string>();
  $('meta').each((order, el) => {
    const $el = $(el);
    const rawName = ($el.attr('property') ?? $el.attr('name') ?? '').trim();
    const content = collapse($el.attr('content') ?? '');
    if (!rawName || !content || $el.closest('[itemscope]').length > 0) return;
    const lower = rawName.toLowerCase();
    const match =
      /^(og|twitter|article|product|book|profile|dc|dcterms|citation|fb|music|video)[:.](.+)$/i.exec(rawName);
    const prefix = match ? (match[1] ?? '').toLowerCase() : '';
    const key = match ? (match[2] ?? '') : rawName;
    if (prefix === 'fb' || IGNORED.has(key.toLowerCase()) || IGNORED.has(lower)) return;
    if (prefix === 'twitter') {
      const pair = /^(label|data)(\d)$/i.exec(key);
      if (pair) {
        (pair[1]?.toLowerCase() === 'label' ? twitterLabels : twitterData).set(pair[2] ?? '', content);
        return;
      }
    }
    found.push({ rank: rankOf(prefix), order, key, value: content });
  });
  for (const [index, label] of twitterLabels) {
    const data = twitterData.get(index);
    if (data) found.push({ rank: 1, order: 10_000 + Number(index), key: label, value: data });
  }
  found.sort((a, b) => a.rank - b.rank || a.order - b.order);

  const node = newNode('meta');
  for (const f of found) node.entries.push({ key: f.key, value: f.value });
  const canonical = $('link[rel="canonical" i]').attr('href')?.trim();
  if (canonical) node.entries.push({ key: 'url', value: canonical });
  const lang = $('html').attr('lang')?.trim();
  if (lang) node.entries.push({ key: 'language', value: lang });
  return node;
}
