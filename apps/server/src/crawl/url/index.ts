export { isTrackingParam, type NormalizeUrlOptions, normalizeUrl, TRACKING_PARAMS } from './normalize-url.js';
export {
  MAX_SITEMAP_ENTRIES,
  type ParsedSitemap,
  parseSitemap,
} from './parse-sitemap.js';
export { matchesPathGlobs } from './path-globs.js';
export { isSameSite, siteKey } from './same-site.js';
