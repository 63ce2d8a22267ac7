export { isTrackingParam, type NormalizeUrlOptions, normalizeUrl, TRACKING_PARAMS } from './normalize-url.js';
export {
  MAX_SITEMAP_ENTRIES,
  type ParsedSitemap,
  parseSitemap,
} from './parse-sitemap.js';
export { MAX_GLOB_SEARCH_SIZE, matchesPathGlobs, pathGlobsSearchSize } from './path-globs.js';
export { isSameSite, siteKey } from './same-site.js';
