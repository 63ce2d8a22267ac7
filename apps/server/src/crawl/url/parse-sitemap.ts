import { Parser } from 'htmlparser2';

/** Most entries read from one sitemap file (the sitemaps.org limit). */
export const MAX_SITEMAP_ENTRIES = 50_000;

/**
 * Characters of a sitemap parsed between two turns of the event loop by {@link parseSitemap}.
 * Sitemaps run to 50 MB; parsed at once, one of 6 MB (100,000 entries) held every request for 0.5 s.
 */
export const SITEMAP_CHARS_PER_TURN = 256 * 1024;

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
 * whatever entries could be read, never an exception. Read by htmlparser2's
 * streaming parser in XML mode (no document tree: a sitemap is a flat list;
 * cheerio itself costs a server ~100 ms of CPU to import, and a deep crawl
 * reads a sitemap on its first page), `charsPerTurn` characters at a time with
 * a turn of the event loop between two of them, so a server answers requests
 * meanwhile.
 *
 * @example
 * ```ts
 * await parseSitemap('<urlset><url><loc>https://x.org/a</loc></url></urlset>'); // { urls: ['https://x.org/a'], sitemaps: [] }
 * ```
 */
export async function parseSitemap(
  xml: string,
  charsPerTurn: number = SITEMAP_CHARS_PER_TURN,
): Promise<ParsedSitemap> {
  const reader = new SitemapReader();
  for (let at = 0; at < xml.length; at += charsPerTurn) {
    if (at > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    reader.write(xml.slice(at, at + charsPerTurn));
  }
  return reader.end();
}

/** One sitemap read as it streams in: the `<loc>` text of each `<url>` and `<sitemap>`. */
class SitemapReader {
  private readonly urls = new Set<string>();
  private readonly sitemaps = new Set<string>();
  /** Open elements' names, outermost first. */
  private readonly open: string[] = [];
  /** The list a `<loc>` being read goes to (null: not in a `<loc>` that counts), and its text so far. */
  private target: Set<string> | null = null;
  private text = '';
  /** How deep in the open elements the counted `<loc>` is. */
  private locDepth = -1;
  private readonly parser = new Parser(
    {
      onopentag: (name) => this.opened(name),
      ontext: (text) => {
        if (this.target !== null) this.text += text;
      },
      onclosetag: () => this.closed(),
    },
    { xmlMode: true, decodeEntities: true, lowerCaseTags: true, recognizeCDATA: true },
  );

  write(chunk: string): void {
    this.parser.write(chunk);
  }

  end(): ParsedSitemap {
    this.parser.end();
    return { urls: [...this.urls], sitemaps: [...this.sitemaps] };
  }

  private opened(name: string): void {
    const parent = this.open.at(-1);
    this.open.push(name);
    if (this.target !== null || parent === undefined || localName(name) !== 'loc') return;
    // Extension elements (image:loc, video:loc) have a prefix of another namespace: only plain or sm: loc count.
    if (name.includes(':') && !isSitemapPrefix(name)) return;
    const container = localName(parent);
    const target = container === 'url' ? this.urls : container === 'sitemap' ? this.sitemaps : null;
    if (target === null || target.size >= MAX_SITEMAP_ENTRIES) return;
    this.target = target;
    this.text = '';
    this.locDepth = this.open.length;
  }

  private closed(): void {
    if (this.target !== null && this.open.length === this.locDepth) {
      const loc = this.text.trim();
      if (isHttpUrl(loc)) this.target.add(loc);
      this.target = null;
      this.text = '';
    }
    this.open.pop();
  }
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
