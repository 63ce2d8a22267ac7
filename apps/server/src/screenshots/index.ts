export {
  BUNDLED_CHROMIUM_PACKAGE,
  type BundledChromium,
  chromiumCacheRoot,
  findBundledChromium,
  type LaunchableChromium,
} from './bundled-chromium.js';
export { CaptureContext, type CaptureContextOptions } from './capture-context.js';
export {
  CHROMIUM_CANDIDATES,
  CHROMIUM_IGNORE_SYSTEM_ENV,
  CHROMIUM_PATH_ENV,
  type ChromiumLocation,
  type FoundChromium,
  locateChromium,
} from './chromium-locator.js';
export {
  type GuardedProxy,
  type GuardedProxyOptions,
  REFUSAL_HEADER,
  startGuardedProxy,
} from './guarded-proxy.js';
export { decodePng, type PngInfo, type PngSize, readPngSize } from './png.js';
export {
  type CaptureOptions,
  type CaptureStep,
  CHROMIUM_ARGS,
  type ScreenshotConfig,
  ScreenshotService,
  type ScreenshotServiceOptions,
  VIEWPORT,
} from './screenshot-service.js';
export { Semaphore } from './semaphore.js';
export {
  SIGNING_KEYS_FILE,
  type SignatureCheck,
  signedScreenshotPath,
  UrlSigner,
} from './signed-url.js';
export type { ScreenshotServiceLike } from './types.js';
