import { isSameSite, normalizeUrl } from './url/index.js';

/**
 * The other URLs a crawled page answers for, normalised: where its URL
 * redirected and its same-site `rel=canonical`. Recorded so a later link to
 * them is not fetched again (a canonical on another site is not trusted: a
 * page cannot claim someone else's URL).
 */
export function pageAliases(page: { url: string; finalUrl: string; canonicalUrl: string | null }): string[] {
  const own = normalizeUrl(page.url);
  const aliases = new Set<string>([normalizeUrl(page.finalUrl)]);
  if (page.canonicalUrl && isSameSite(page.canonicalUrl, page.finalUrl)) {
    aliases.add(normalizeUrl(page.canonicalUrl));
  }
  aliases.delete(own);
  return [...aliases];
}
