import { DomUtils, parseDocument } from 'htmlparser2';

/** Most entries read from one sitemap file (the sitemaps.org limit). */
export const MAX_SITEMAP_ENTRIES = 50_000;

/** The page URLs (`<urlset>`) and nested sitemap URLs (`<sitemapindex>`) of a sitemap. */
export interface ParsedSitemap {
  urls: string[];
  sitemaps: string[];
}

/**
 * Reads a sitemaps.org XML sitemap: the `<loc>` of each `<url>` of a
 * `<urlset>` and of each `<sitemap>` of a `<sitemapindex>`. Element names are
 * matched without namespace prefix and case, so `<sm:loc>` and `<LOC>` are
 * read too; `<image:loc>` and other extension elements inside a `<url>` are
 * not taken for pages. Entities and CDATA are decoded, whitespace trimmed,
 * only absolute http(s) URLs kept, duplicates removed, and at most
 * {@link MAX_SITEMAP_ENTRIES} of each list returned. Malformed XML gives
 * whatever entries could be read, never an exception. Parsed by htmlparser2
 * in XML mode (what cheerio's XML mode runs; cheerio itself costs a server
 * ~100 ms of CPU to import, and a deep crawl reads a sitemap on its first page).
 *
 * @example
 * ```ts
 * parseSitemap('<urlset><url><loc>https://x.org/a</loc></url></urlset>'); // { urls: ['https://x.org/a'], sitemaps: [] }
 * ```
 */
export function parseSitemap(xml: string): ParsedSitemap {
  const document = parseDocument(xml, { xmlMode: true, decodeEntities: true, lowerCaseTags: true });
  const urls = new Set<string>();
  const sitemaps = new Set<string>();
  // Every element, in document order.
  for (const element of DomUtils.findAll(() => true, document.children)) {
    if (element.type !== 'tag' || localName(element.name) !== 'loc') continue;
    const parent = element.parent;
    if (parent === null || parent.type !== 'tag') continue;
    const container = localName(parent.name);
    // Extension elements (image:loc, video:loc) have a prefix of another namespace: only plain or sm: loc count.
    if (element.name.includes(':') && !isSitemapPrefix(element.name)) continue;
    const target = container === 'url' ? urls : container === 'sitemap' ? sitemaps : null;
    if (target === null || target.size >= MAX_SITEMAP_ENTRIES) continue;
    const loc = DomUtils.textContent(element).trim();
    if (isHttpUrl(loc)) target.add(loc);
  }
  return { urls: [...urls], sitemaps: [...sitemaps] };
}

function localName(name: string): string {
  const colon = name.indexOf(':');
  return (colon === -1 ? name : name.slice(colon + 1)).toLowerCase();
}

function isSitemapPrefix(name: string): boolean {
  const prefix = name.slice(0, name.indexOf(':')).toLowerCase();
  return prefix === 'sm' || prefix === 'sitemap' || prefix === 's';
}

function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    return new URL(value).hostname !== '';
  } catch {
    return false;
  }
}
