/** How {@link normalizeUrl} canonicalises a URL. */
export interface NormalizeUrlOptions {
  /** Remove known tracking query parameters (`utm_*`, `gclid`, …). Default true. */
  stripTracking?: boolean;
  /** More query parameter names to remove (compared case-insensitively). */
  extraTrackingParams?: readonly string[];
  /** Remove a last path segment `index.html`, `index.htm` or `index.php`. Default true. */
  stripIndexFile?: boolean;
  /** Sort query parameters by name (stable: repeated names keep their order). Default true. */
  sortQuery?: boolean;
}

/** Query parameters that only tell analytics where a visitor came from. */
export const TRACKING_PARAMS: ReadonlySet<string> = new Set([
  'gclid',
  'gclsrc',
  'dclid',
  'gbraid',
  'wbraid',
  'fbclid',
  'msclkid',
  'yclid',
  'twclid',
  'ttclid',
  'li_fat_id',
  'igshid',
  'mc_cid',
  'mc_eid',
  '_ga',
  '_gl',
  '_hsenc',
  '_hsmi',
  'mkt_tok',
  'ref',
  'ref_src',
  'ref_url',
  'oly_anon_id',
  'oly_enc_id',
  'vero_id',
  'vero_conv',
  'rb_clickid',
  's_cid',
  'spm',
]);
const TRACKING_PREFIXES = ['utm_', 'pk_', 'mtm_'];
const INDEX_FILE = /\/index\.(?:html?|php)$/i;
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/**
 * The canonical form of an http(s) URL used to tell whether two links lead
 * to the same page: the key a crawl dedupes on. Rules:
 *
 * - scheme and host lower-case, default port (80/443) dropped, a trailing
 *   dot of the host dropped; the fragment dropped;
 * - `.` and `..` segments resolved; a final `index.html`/`index.htm`/`index.php` dropped;
 * - **trailing slash: removed** (`/docs/` and `/docs` become `/docs`), except
 *   for the root, which stays `/`. Most servers serve both or redirect one to
 *   the other; fetch the URL as found and use this form only as the key;
 * - percent-escapes of unreserved characters (`%41` → `A`, `%7E` → `~`)
 *   decoded, the others upper-cased (`%2f` → `%2F`);
 * - query parameters sorted by name (stable), empty `&` parts and tracking
 *   parameters dropped, and `?` dropped when nothing is left.
 *
 * Throws `TypeError` for a string that is not an absolute URL. Other schemes
 * than http(s) are returned as the URL parser prints them, fragment dropped.
 *
 * @example
 * ```ts
 * normalizeUrl('HTTPS://Example.COM:443/a/./b/../index.html?utm_source=x&b=2&a=1#top');
 * // 'https://example.com/a?a=1&b=2'
 * ```
 */
export function normalizeUrl(input: string, options: NormalizeUrlOptions = {}): string {
  const url = new URL(input.trim());
  // Each setter parses its part again and rebuilds the URL: parts already in their
  // canonical form (most links a crawl meets) are left alone. A '#' in the href can
  // only be the fragment's, empty or not (the parser escapes it elsewhere).
  if (url.href.includes('#')) url.hash = '';
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return url.href;

  if (url.hostname.endsWith('.') && url.hostname.length > 1) url.hostname = url.hostname.slice(0, -1);

  let path = normalizeEscapes(url.pathname);
  if (options.stripIndexFile ?? true) path = path.replace(INDEX_FILE, '/');
  if (path.length > 1 && path.endsWith('/')) path = path.replace(/\/+$/, '') || '/';
  if (path !== url.pathname) url.pathname = path;

  const search = normalizeQuery(url.search, options);
  if (search !== url.search) url.search = search;
  // URL.href keeps a bare "?" when the query was set to an empty string.
  return url.href.endsWith('?') ? url.href.slice(0, -1) : url.href;
}

function normalizeQuery(search: string, options: NormalizeUrlOptions): string {
  if (search.length <= 1) return '';
  const stripTracking = options.stripTracking ?? true;
  const extra = new Set((options.extraTrackingParams ?? []).map((name) => name.toLowerCase()));
  const parts = search
    .slice(1)
    .split('&')
    .filter((part) => part !== '')
    .map((part) => {
      const equals = part.indexOf('=');
      const rawName = equals === -1 ? part : part.slice(0, equals);
      return { name: normalizeEscapes(rawName), text: normalizeEscapes(part) };
    })
    .filter(({ name }) => {
      const key = safeDecode(name.replace(/\+/g, ' ')).toLowerCase();
      if (extra.has(key)) return false;
      return !(stripTracking && isTrackingParam(key));
    });
  if (options.sortQuery ?? true) {
    // Array.prototype.sort is stable, so a repeated name keeps the order of its values.
    parts.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
  return parts.length === 0 ? '' : `?${parts.map((p) => p.text).join('&')}`;
}

/** True for a query parameter name (lower-case) that is known to be tracking only. */
export function isTrackingParam(name: string): boolean {
  return TRACKING_PARAMS.has(name) || TRACKING_PREFIXES.some((prefix) => name.startsWith(prefix));
}

/** Decodes `%XX` of unreserved characters and upper-cases the hex digits of the others. */
function normalizeEscapes(text: string): string {
  return text.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => {
    const char = String.fromCharCode(Number.parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
  });
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
