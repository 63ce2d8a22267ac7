/**
 * A generated site for deep-crawl tests and the deep-crawl benchmark: a few
 * sections of pages in trees of known depth, with cycles, cross links, and
 * (optionally) the traps a crawler must handle — duplicate URL variants of one
 * page, an excluded section, a robots.txt `Disallow:` section, a sitemap index
 * whose sitemaps list pages that no page links to, and pages reachable only
 * through forbidden ones.
 *
 * The generator returns the link graph as data so a test can compute the
 * expected crawl (breadth-first, same rules) without asking the server.
 *
 * Run as a program (`node --import tsx bench/deep-crawl-site.ts 5000`) it
 * serves a plain site of that many pages on 127.0.0.1 and prints
 * `listening on URL`, so a benchmark can keep the site off its own event loop.
 */
import { fileURLToPath } from 'node:url';
import { type FixtureRoute, FixtureSite } from '../test/fixture-site.js';

/** One page of the generated site. */
export interface GeneratedPage {
  /** Canonical path: no trailing slash, no `index.html`, no query. */
  path: string;
  title: string;
  /** The links exactly as written in the page (variants, fragments, absolute URLs). */
  hrefs: string[];
}

/** A sitemap file: page URLs and nested sitemap URLs (absolute). */
export interface GeneratedSitemap {
  urls: string[];
  sitemaps: string[];
}

/** The site as data (for computing the expected crawl) and as routes (for serving it). */
export interface DeepCrawlSite {
  origin: string;
  /** Every page by canonical path, including the ones a polite crawl must not fetch. */
  pages: Map<string, GeneratedPage>;
  /** Sitemap files by path; empty without traps. */
  sitemaps: Map<string, GeneratedSitemap>;
  /** The `Sitemap:` URLs of robots.txt. */
  robotsSitemaps: string[];
  /** Path prefixes robots.txt disallows. */
  disallowed: string[];
  /** Glob a test passes as `exclude_paths` (the section that exists to be excluded). */
  excludeGlob: string;
  routes: Record<string, FixtureRoute>;
}

export interface DeepCrawlSiteOptions {
  /** `http://127.0.0.1:PORT` of the server that will serve the routes. */
  origin: string;
  /** Pages in the linked sections (the traps come on top). */
  pages: number;
  /** Children per page in a section's tree (default 4). */
  branching?: number;
  /** Link to pages by varying URL forms, and add the excluded, disallowed and sitemap-only pages. */
  traps?: boolean;
  /** A page on another site the home page links to. */
  externalUrl?: string;
  /** Delay before each page answers, in milliseconds (default 0). */
  pageDelayMs?: number;
}

const SECTIONS = ['docs', 'blog', 'guide', 'api'];
const WORDS = `crawler frontier queue depth sitemap robots index search ranking snippet collection
  document worker lease retry timeout redirect canonical link anchor heading paragraph markdown
  extraction schema storage sqlite transaction cursor page result status latency throughput memory
  politeness concurrency host delay budget limit breadth first graph cycle duplicate variant fragment`
  .split(/\s+/)
  .filter((word) => word !== '');

/**
 * Builds the site. Links are arranged so that breadth-first depth does not
 * depend on which page finishes first when many are fetched at once: a page
 * at depth d links only to pages at depth d+1, to itself, or back to pages at
 * depth 0 or 1 (all of which are known before any depth-1 page is fetched).
 */
export function buildDeepCrawlSite(options: DeepCrawlSiteOptions): DeepCrawlSite {
  const { origin, traps = false } = options;
  const branching = options.branching ?? 4;
  const pages = new Map<string, GeneratedPage>();
  const perSection = Math.max(1, Math.floor((options.pages - 1) / SECTIONS.length));
  let variantCounter = 0;
  // A link to `path` written in one of the forms that all mean the same page.
  const href = (path: string): string => {
    if (!traps) return path;
    variantCounter += 1;
    const base = path === '/' ? '' : path;
    switch (variantCounter % 7) {
      case 1:
        return `${base}/`;
      case 2:
        return `${base}/index.html`;
      case 3:
        return `${path}?utm_source=newsletter&utm_medium=email`;
      case 4:
        return `${path}#section-${variantCounter % 5}`;
      case 5:
        return `${origin.replace('http://', 'HTTP://')}${path}`;
      default:
        return path;
    }
  };
  const add = (path: string, title: string, hrefs: string[]) => pages.set(path, { path, title, hrefs });

  const homeLinks = SECTIONS.map((section) => href(`/${section}`));
  if (traps) homeLinks.push('/private', '/secret/', '#top', '/');
  if (options.externalUrl) homeLinks.push(options.externalUrl);
  add('/', 'Home', homeLinks);

  const treeDepth = (i: number) => {
    let depth = 0;
    for (let n = i; n > 0; n = Math.floor((n - 1) / branching)) depth += 1;
    return depth;
  };
  for (const section of SECTIONS) {
    const pathOf = (i: number) => (i === 0 ? `/${section}` : `/${section}/p${i}`);
    for (let i = 0; i < perSection; i += 1) {
      const links: string[] = [];
      for (let c = branching * i + 1; c <= branching * i + branching && c < perSection; c += 1)
        links.push(href(pathOf(c)));
      // A cross link to a cousin one level down, only when the neighbour is on the same level.
      const cousin = branching * (i + 1) + 1;
      if (i + 1 < perSection && treeDepth(i + 1) === treeDepth(i) && cousin < perSection)
        links.push(href(pathOf(cousin)));
      // Cycles: back home, back to the section, to itself.
      links.push(href('/'), href(`/${section}`), href(pathOf(i)));
      if (traps && i % 9 === 5) links.push(`/private/p${i % 3}`, `/secret/p${i % 3}`);
      add(pathOf(i), `${capitalise(section)} page ${i}`, links);
    }
  }

  const sitemaps = new Map<string, GeneratedSitemap>();
  const robotsSitemaps: string[] = [];
  const disallowed: string[] = [];
  if (traps) {
    // Forbidden sections, each the only way to a page of an allowed path.
    add('/private', 'Private', ['/private/p0', '/private/p1', '/hidden/p1']);
    add('/secret', 'Secret', ['/secret/p0', '/secret/p1', '/hidden/p2']);
    for (let i = 0; i < 3; i += 1) {
      add(`/private/p${i}`, `Private ${i}`, ['/']);
      add(`/secret/p${i}`, `Secret ${i}`, ['/']);
    }
    add('/hidden/p1', 'Hidden 1', ['/']);
    add('/hidden/p2', 'Hidden 2', ['/']);
    // Orphans: listed only by a sitemap; each has a child that only it links to.
    const orphans: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      add(`/orphans/p${i}`, `Orphan ${i}`, [`/orphans/p${i}/child`, '/']);
      add(`/orphans/p${i}/child`, `Orphan child ${i}`, ['/', `/orphans/p${i}`]);
      orphans.push(`${origin}/orphans/p${i}`);
    }
    // Leaves of the trees (no children): a sitemap entry makes them depth 1 without moving anything else.
    const leaves = [...pages.keys()].filter((path) => /^\/(docs|blog)\/p\d+$/.test(path)).slice(-2);
    sitemaps.set('/sitemap-index.xml', {
      urls: [],
      sitemaps: [`${origin}/sitemap-pages.xml`, `${origin}/sitemap-orphans.xml`],
    });
    sitemaps.set('/sitemap-pages.xml', {
      urls: [
        `${origin}/`,
        ...SECTIONS.map((section) => `${origin}/${section}`),
        ...leaves.map((path) => `${origin}${path}`),
        `${origin}/private/p2`,
        `${origin}/secret/p2`,
      ],
      sitemaps: [],
    });
    sitemaps.set('/sitemap-orphans.xml', { urls: orphans, sitemaps: [] });
    robotsSitemaps.push(`${origin}/sitemap-index.xml`);
    disallowed.push('/secret');
  }

  const routes: Record<string, FixtureRoute> = {};
  const delay = options.pageDelayMs ?? 0;
  for (const page of pages.values()) {
    const html = renderPage(page);
    const route: FixtureRoute =
      delay > 0
        ? (_request, response) => {
            const timer = setTimeout(() => {
              response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
            }, delay);
            response.once('close', () => clearTimeout(timer));
          }
        : { body: html };
    routes[page.path] = route;
    const base = page.path === '/' ? '' : page.path;
    routes[`${base}/`] = route;
    routes[`${base}/index.html`] = route;
  }
  if (traps) {
    routes['/robots.txt'] = {
      type: 'text/plain',
      body: `User-agent: *\n${disallowed.map((d) => `Disallow: ${d}\n`).join('')}\n${robotsSitemaps.map((s) => `Sitemap: ${s}\n`).join('')}`,
    };
    for (const [path, sitemap] of sitemaps)
      routes[path] = { type: 'application/xml', body: sitemapXml(sitemap) };
  }
  return { origin, pages, sitemaps, robotsSitemaps, disallowed, excludeGlob: '/private/**', routes };
}

/** Starts a {@link FixtureSite} on 127.0.0.1 serving a generated site (the origin is known only once it listens). */
export async function startDeepCrawlSite(
  options: Omit<DeepCrawlSiteOptions, 'origin'>,
): Promise<{ site: FixtureSite; spec: DeepCrawlSite }> {
  const site = new FixtureSite({});
  const origin = await site.start();
  const spec = buildDeepCrawlSite({ ...options, origin });
  Object.assign(site.routes, spec.routes);
  return { site, spec };
}

function sitemapXml(sitemap: GeneratedSitemap): string {
  if (sitemap.sitemaps.length > 0) {
    const entries = sitemap.sitemaps.map((loc) => `<sitemap><loc>${loc}</loc></sitemap>`).join('\n');
    return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries}\n</sitemapindex>`;
  }
  const entries = sitemap.urls.map((loc) => `<url><loc>${loc}</loc></url>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries}\n</urlset>`;
}

/** A page of a few paragraphs (about 2 KB of text), deterministic for its path. */
function renderPage(page: GeneratedPage): string {
  let seed = 0;
  for (const char of page.path) seed = (seed * 31 + char.charCodeAt(0)) >>> 0;
  const word = () => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return WORDS[seed % WORDS.length]!;
  };
  const sentence = () => {
    const words = Array.from({ length: 12 }, word);
    return `${capitalise(words.join(' '))}.`;
  };
  const paragraphs = Array.from(
    { length: 4 },
    () => `<p>${Array.from({ length: 4 }, sentence).join(' ')}</p>`,
  ).join('\n');
  const links = page.hrefs.map((h, i) => `<li><a href="${h}">Link ${i + 1}</a></li>`).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${page.title}</title></head>
<body><header><nav><a href="/">Home</a></nav></header><main><article><h1>${page.title}</h1>
${paragraphs}
<h2>Related pages</h2><ul>${links}</ul></article></main><footer>Generated site</footer></body></html>`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// As a program: serve a plain site of argv[2] pages until killed.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { site } = await startDeepCrawlSite({ pages: Number(process.argv[2] ?? 5000) });
  console.log(`listening on ${site.url}`);
  const stop = () => {
    site.stop().then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
