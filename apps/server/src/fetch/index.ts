export { decodeBody, kindOfMediaType, parseContentType } from './content-type.js';
export {
  type AddressPolicy,
  createGuardedConnector,
  createGuardedLookup,
  defaultAddressPolicy,
  type ResolveAll,
} from './guarded-connector.js';
export { HostGate, type ReleaseSlot } from './host-gate.js';
export { HttpStatusError } from './http-status-error.js';
export {
  MAX_CRAWL_DELAY_MS,
  PAGE_ACCEPT,
  PageFetcher,
  type PageFetcherConfig,
  type PageFetcherDeps,
} from './page-fetcher.js';
export { allowAllRobots, parseRobots, RobotsCache, robotsAgentToken } from './robots.js';
export {
  type AddressClass,
  assertAddressAllowed,
  checkHopUrl,
  classifyAddress,
  describeAddressClass,
  isAllowedClass,
} from './ssrf-guard.js';
export type {
  FetchedPage,
  FetchPageOptions,
  FetchTextOptions,
  PageFetcherLike,
  RobotsInfo,
} from './types.js';
