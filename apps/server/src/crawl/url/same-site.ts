const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

/**
 * True when two URLs belong to the same site for a crawl's "stay on this
 * site" rule:
 *
 * - host names are compared case-insensitively, with one leading `www.`
 *   ignored (`www.example.org` = `example.org`);
 * - any other subdomain is a different site (`docs.example.org` ≠
 *   `example.org`): without the Public Suffix List we cannot tell a
 *   registrable domain from a hosting suffix (`a.github.io` vs `b.github.io`),
 *   so only the exact host is trusted;
 * - http and https of the same host are the same site; a port that is not the
 *   scheme's default must match (`127.0.0.1:8080` ≠ `127.0.0.1:9090`).
 *
 * Invalid URLs are never the same site as anything.
 *
 * @example
 * ```ts
 * isSameSite('https://www.example.org/a', 'http://example.org/b'); // true
 * isSameSite('https://docs.example.org/', 'https://example.org/'); // false
 * ```
 */
export function isSameSite(a: string, b: string): boolean {
  const left = siteKey(a);
  const right = siteKey(b);
  return left !== null && right !== null && left === right;
}

/**
 * The part of a URL that {@link isSameSite} compares (`host:port`, `www.`
 * and default port dropped), or null for an invalid or non-http(s) URL: two
 * URLs are the same site when their keys are equal and not null. Takes a
 * parsed URL too, so a caller comparing many links to one site parses each once.
 */
export function siteKey(input: string | URL): string | null {
  let url: URL;
  if (typeof input === 'string') {
    try {
      url = new URL(input);
    } catch {
      return null;
    }
  } else {
    url = input;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  let host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (host.startsWith('www.') && host.length > 4) host = host.slice(4);
  // url.port is '' for the scheme's default; any explicit other port is part of the site.
  const port = url.port === '' || url.port === DEFAULT_PORTS[url.protocol] ? '' : url.port;
  return `${host}:${port}`;
}
