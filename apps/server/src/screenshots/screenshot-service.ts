import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser, BrowserContext, CDPSession, LaunchOptions, Page } from 'playwright-core';
import type { ServerConfig } from '../config.js';
import { PageError } from '../errors.js';
import type { AddressPolicy, ResolveAll } from '../fetch/guarded-connector.js';
import { checkHopUrl } from '../fetch/ssrf-guard.js';
import { CaptureContext } from './capture-context.js';
import { captureRetryingNoFrame } from './capture-retry.js';
import { locateChromium } from './chromium-locator.js';
import { evaluateFollowingNavigations } from './follow-navigation.js';
import { type GuardedProxy, REFUSAL_HEADER, startGuardedProxy } from './guarded-proxy.js';
import { type NetworkQuiet, trackNetwork } from './network-quiet.js';
import { type ReadResidentBytes, RendererMemoryGuard } from './renderer-memory-guard.js';
import { Semaphore } from './semaphore.js';
import type { ScreenshotServiceLike } from './types.js';

/** The settings of {@link ServerConfig} the screenshot service reads. */
export type ScreenshotConfig = Pick<
  ServerConfig,
  | 'chromiumPath'
  | 'screenshotConcurrency'
  | 'screenshotMemoryLimitMb'
  | 'pageTimeoutMs'
  | 'allowPrivateNetworks'
  | 'userAgent'
>;

/** Tuning and test hooks; the defaults suit production. */
export interface ScreenshotServiceOptions {
  /** Tallest image produced, in CSS pixels; longer pages are cut (default 16,384). */
  maxPageHeight?: number;
  /** Widest image produced (default 4,096). */
  maxPageWidth?: number;
  /** Longest wait for the network to go quiet after `load` (default 2,000 ms). */
  networkIdleTimeoutMs?: number;
  /** How long without requests counts as quiet (default 200 ms). */
  networkQuietMs?: number;
  /** Environment read for `WEBDATA_CHROMIUM_PATH` (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Resolver of the guard's proxy (default the system's `dns.lookup`); tests map names to loopback. */
  resolveAll?: ResolveAll;
  /** Which addresses the guard's proxy may connect to (default: public ones only). */
  addressPolicy?: AddressPolicy;
  /** Extra Chromium flags. */
  extraChromiumArgs?: string[];
  /** How long a failed launch is remembered before trying again (default 30 s). */
  relaunchBackoffMs?: number;
  /**
   * How long a run's browser context stays open after its last capture ended
   * (default 5,000 ms): long beside the gap between two pages of a running
   * crawl, short beside a run's life.
   */
  runContextIdleMs?: number;
  /** Reader of a renderer's resident memory (default from `/proc`); tests make a page look large. */
  readResident?: ReadResidentBytes;
}

/** Options of one {@link ScreenshotService.capture}. */
export interface CaptureOptions {
  /** Stops the capture (`cancelled`). */
  signal?: AbortSignal | undefined;
  /** Page time-out (default `pageTimeoutMs`). */
  timeoutMs?: number | undefined;
  /**
   * The crawl run the capture belongs to. Captures with the same key share
   * one browser context (renderer, HTTP cache, cookies), so give each run
   * its own key and never one key to two runs or two owners. Without a key
   * the capture gets a context of its own, closed when it ends.
   */
  runKey?: string | undefined;
  /**
   * Whose capture it is: captures waiting for a rendering slot take turns between owners (then
   * between those without one), so one key's queue of slow pages does not hold back another's.
   */
  owner?: string | undefined;
}

/** Flags that keep a headless Chromium from calling home on a closed network. */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * No page opens another (window.open, links and forms aimed at a new window). The system's
 * Chromium blocks such popups once Playwright's `--disable-popup-blocking` is left out (the
 * launch's `ignoreDefaultArgs`); the bundled build (@sparticuz/chromium, a headless shell) has no
 * popup blocker, and there a page opening copies of itself went from 22 to 39 loads in 1.5 s
 * though each popup was closed as it opened. This headless switch makes every new window fail.
 */
const POPUP_GUARD_ARGS = ['--block-new-web-contents'];

/** WebRTC could reach private addresses past the request router; keep it off the local network. */
const WEBRTC_GUARD_ARGS = [
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
];

/**
 * The page's size, read once the document it runs in has loaded (after a
 * navigation the page made itself, it may run in the next document before
 * that one's `load`) and its fonts are in (at most
 * `fontWaitMs`) and one task after the call: a request that the `load`
 * handlers queue in a timer has started by then, so the capture sees it and
 * waits for it. No wait for a frame: the screenshot makes its own, and on
 * two shared cores the compositor is often busy with the other tab's
 * screenshot (waiting for two frames cost 60–100 ms a page).
 * A string, not a function: run from the sources through tsx, esbuild's
 * keepNames wraps a function's inner functions in a `__name` helper that
 * the page does not have (ReferenceError, no screenshot).
 */
function measurePage(fontWaitMs: number): string {
  return `new Promise((resolve) => document.readyState === 'complete' ? resolve() : addEventListener('load', resolve, { once: true }))
  .then(() => new Promise((resolve) => setTimeout(resolve, 0)))
  .then(() => document.fonts && Promise.race([document.fonts.ready, new Promise((resolve) => setTimeout(resolve, ${fontWaitMs}))]))
  .then(() => {
    const root = document.documentElement;
    const body = document.body;
    return {
      width: Math.max(root.scrollWidth, body ? body.scrollWidth : 0, root.clientWidth),
      height: Math.max(root.scrollHeight, body ? body.scrollHeight : 0, root.clientHeight),
    };
  })`;
}

export const VIEWPORT = { width: 1280, height: 800 } as const;
const LAUNCH_TIMEOUT_MS = 30_000;

/**
 * Starts of Chromium tried before captures are refused for the relaunch
 * back-off: on a loaded machine a start now and then dies before the browser
 * answers (seen in CI: "Target page, context or browser has been closed"
 * during the launch), and a second start a moment later succeeds. A program
 * that cannot start at all fails both, so it costs one pause more.
 */
const LAUNCH_ATTEMPTS = 2;
const LAUNCH_RETRY_PAUSE_MS = 500;

/** The steps of a capture whose wall time {@link ScreenshotService.stepMs} adds up. */
export type CaptureStep = 'slot' | 'tab' | 'load' | 'measure' | 'quiet' | 'screenshot' | 'giveBack';

/** A capture failed because the browser or its context went away under it; worth one retry on a new one. */
class BrowserLost extends Error {}

/**
 * Renders pages to full-page PNGs in Chromium (the one {@link locateChromium}
 * finds, through playwright-core). One browser is launched on first use and shared;
 * it is launched again after a crash. The captures of one crawl run (one
 * `runKey`) share a browser context ({@link CaptureContext}: 1280×800
 * viewport, scale 1, its tabs reused), closed a few seconds after the run's
 * last capture; no two runs share one, so no cookie or cached file passes
 * between runs or owners. A capture without a run key gets a context of its
 * own. At most `screenshotConcurrency` pages render at once.
 *
 * With `allowPrivateNetworks` off, each context sends all its traffic
 * through its own {@link startGuardedProxy}, which refuses private,
 * loopback and link-local addresses for the page, its redirects and
 * everything it loads.
 */
export class ScreenshotService implements ScreenshotServiceLike {
  /** Browsers launched so far (1 while the first one lives; more after crashes). */
  launches = 0;
  /** Browser contexts opened so far, one per run (more after a context or the browser went away). */
  contextsOpened = 0;
  /**
   * Wall time of each capture step, in ms, summed over every capture so far
   * (captures that render at once overlap): waiting for a rendering slot,
   * taking a tab (opening the run's context when needed), `goto` until
   * `load`, the measures, the quiet wait, the screenshot, handing the tab
   * back. What the benches print to show where a capture's time goes.
   */
  readonly stepMs: Record<CaptureStep, number> = {
    slot: 0,
    tab: 0,
    load: 0,
    measure: 0,
    quiet: 0,
    screenshot: 0,
    giveBack: 0,
  };
  /** The open browser context of each run that took screenshots in the last few seconds, by run key. */
  private readonly runContexts = new Map<string, CaptureContext>();
  private readonly runContextIdleMs: number;
  private readonly semaphore: Semaphore;
  private readonly maxPageHeight: number;
  private readonly maxPageWidth: number;
  private readonly networkIdleTimeoutMs: number;
  private readonly networkQuietMs: number;
  private readonly relaunchBackoffMs: number;
  private readonly measureScript: string;
  /**
   * Stops a renderer past `screenshotMemoryLimitMb` while a capture is in flight or a run's context
   * is open (its kept tabs' pages still run their scripts).
   */
  readonly memoryGuard: RendererMemoryGuard;
  /** The browser's own DevTools session (its process list), opened on the guard's first look. */
  private browserDevtools: { browser: Browser; session: Promise<CDPSession> } | undefined;
  /** Captures between their rendering slot and their end. */
  private capturesInFlight = 0;
  /** Each tab's DevTools session, opened on its first screenshot and kept while the tab lives. */
  private readonly devtools = new WeakMap<Page, Promise<CDPSession>>();
  private browser: Browser | undefined;
  private launching: Promise<Browser> | undefined;
  private launchFailure: { reason: string; at: number } | undefined;
  private tempDir: string | undefined;
  private closed = false;

  constructor(
    private readonly config: ScreenshotConfig,
    private readonly options: ScreenshotServiceOptions = {},
  ) {
    this.semaphore = new Semaphore(Math.max(1, Math.floor(config.screenshotConcurrency)));
    this.maxPageHeight = options.maxPageHeight ?? 16_384;
    this.maxPageWidth = options.maxPageWidth ?? 4096;
    this.networkIdleTimeoutMs = options.networkIdleTimeoutMs ?? 2000;
    this.networkQuietMs = options.networkQuietMs ?? 200;
    this.relaunchBackoffMs = options.relaunchBackoffMs ?? 30_000;
    this.runContextIdleMs = options.runContextIdleMs ?? 5000;
    this.measureScript = measurePage(this.networkIdleTimeoutMs);
    this.memoryGuard = new RendererMemoryGuard({
      limitBytes: config.screenshotMemoryLimitMb * 1024 * 1024,
      listProcesses: () => this.browserProcesses(),
      busy: () => this.capturesInFlight > 0 || this.openRunContexts > 0,
      readResident: options.readResident,
    });
  }

  /** The running browser's processes (none while no browser is up). */
  private async browserProcesses(): Promise<{ type: string; id: number }[]> {
    const browser = this.browser;
    if (!browser?.isConnected()) return [];
    if (this.browserDevtools?.browser !== browser) {
      const session = browser.newBrowserCDPSession();
      session.catch(() => undefined);
      this.browserDevtools = { browser, session };
    }
    const session = await this.browserDevtools.session;
    return (await session.send('SystemInfo.getProcessInfo')).processInfo;
  }

  /** The tab's DevTools session (one per tab, reused by the tab's next captures). */
  private devtoolsOf(tab: Page, context: BrowserContext): Promise<CDPSession> {
    let session = this.devtools.get(tab);
    if (!session) {
      session = context.newCDPSession(tab);
      // A failed attach (the tab closed meanwhile) is not kept for the tab's next capture.
      session.catch(() => this.devtools.delete(tab));
      this.devtools.set(tab, session);
    }
    return session;
  }

  /** The browser's open contexts (one per run that took screenshots in the last few seconds). */
  get browserContexts(): readonly BrowserContext[] {
    return this.browser?.isConnected() ? this.browser.contexts() : [];
  }

  /** Runs whose browser context is open right now. */
  get openRunContexts(): number {
    let open = 0;
    for (const context of this.runContexts.values()) if (context.isOpen) open++;
    return open;
  }

  /** The temporary folder of this service's browser (cache, downloads); removed by {@link close}. */
  get temporaryDirectory(): string | undefined {
    return this.tempDir;
  }

  /**
   * Null when screenshots work (Chromium found and launched); otherwise a
   * sentence saying why and how to fix it. Launches the browser if needed.
   */
  async unavailableReason(): Promise<string | null> {
    if (this.closed) return 'the screenshot service is closed';
    const location = locateChromium(this.config.chromiumPath, this.options.env);
    if ('reason' in location) return location.reason;
    try {
      await this.getBrowser();
      return null;
    } catch (error) {
      return error instanceof PageError ? error.message : String(error);
    }
  }

  /**
   * A full-page PNG of `url` (cut at the height cap). Throws PageError:
   * `unprocessable_url` (bad scheme, or a private address while the guard is
   * on), `timeout` (past `timeoutMs`, default `pageTimeoutMs`, counted from
   * when a rendering slot is free and the browser is up),
   * `cancelled` (signal aborted), `http_error` (4xx/5xx page), `fetch_failed`,
   * `unsupported_content` (a download), `screenshot_unavailable` (no browser).
   */
  async capture(url: string, options: CaptureOptions = {}): Promise<Buffer> {
    const { signal } = options;
    const timeoutMs = options.timeoutMs ?? this.config.pageTimeoutMs;
    if (this.closed) throw new PageError('screenshot_unavailable', 'the screenshot service is closed');
    throwIfCancelled(signal);
    checkHopUrl(url, this.config.allowPrivateNetworks);
    const location = locateChromium(this.config.chromiumPath, this.options.env);
    if ('reason' in location) throw new PageError('screenshot_unavailable', location.reason);

    // Entered before the wait for a slot: a run whose pages queue for one keeps its context.
    const capturing = this.contextFor(options.runKey);
    capturing.enter();
    try {
      let release: () => void;
      const waitedFrom = performance.now();
      try {
        release = await this.semaphore.acquire(signal, options.owner ?? '');
      } catch {
        throw cancelled();
      }
      this.stepMs.slot += performance.now() - waitedFrom;
      this.capturesInFlight++;
      this.memoryGuard.watch();
      try {
        try {
          return await this.captureOnce(url, signal, timeoutMs, capturing);
        } catch (error) {
          if (!(error instanceof BrowserLost) || this.closed) throw unwrapLost(error);
          return await this.captureOnce(url, signal, timeoutMs, capturing).catch((again: unknown) => {
            throw unwrapLost(again);
          });
        }
      } finally {
        this.capturesInFlight--;
        release();
      }
    } finally {
      // A context of its own (no run key) is closed here; a run's waits for the run's next page.
      await capturing.leave();
      this.closeIdleBeyondLimit();
    }
  }

  /**
   * Keeps at most `screenshotConcurrency` run contexts open with no capture in
   * them (their tabs hold rendered pages: memory): when many runs take
   * screenshots in turn, the least recently used idle ones close before
   * their idle time-out.
   */
  private closeIdleBeyondLimit(): void {
    const idle = [...this.runContexts.values()].filter((context) => context.idle && context.isOpen);
    const excess = idle.length - this.semaphore.permits;
    for (const context of idle.slice(0, Math.max(0, excess))) void context.close();
  }

  /** The run's browser context (made on its first capture), or a context of its own without a key. */
  private contextFor(runKey: string | undefined): CaptureContext {
    const existing = runKey === undefined ? undefined : this.runContexts.get(runKey);
    if (runKey !== undefined && existing && !existing.closed) {
      // Moved to the end: the map's order is then least recently used first.
      this.runContexts.delete(runKey);
      this.runContexts.set(runKey, existing);
      return existing;
    }
    const made: CaptureContext = new CaptureContext({
      open: (browser, proxy) => this.openContext(browser, proxy),
      startProxy: this.config.allowPrivateNetworks
        ? undefined
        : () =>
            startGuardedProxy({
              policy: this.options.addressPolicy,
              resolveAll: this.options.resolveAll,
              connectTimeoutMs: this.config.pageTimeoutMs,
            }),
      idleMs: runKey === undefined ? 0 : this.runContextIdleMs,
      onClosed: () => {
        if (runKey !== undefined && this.runContexts.get(runKey) === made) this.runContexts.delete(runKey);
      },
    });
    if (runKey !== undefined) this.runContexts.set(runKey, made);
    return made;
  }

  private async openContext(browser: Browser, proxy: GuardedProxy | undefined): Promise<BrowserContext> {
    const context = await browser.newContext({
      ...(proxy ? { proxy: { server: proxy.server } } : {}),
      viewport: VIEWPORT,
      deviceScaleFactor: 1,
      userAgent: this.config.userAgent,
      serviceWorkers: 'block',
      acceptDownloads: false,
    });
    this.contextsOpened++;
    return context;
  }

  /** Closes the browser and removes its temporary folder. Captures after this fail. */
  async close(): Promise<void> {
    this.closed = true;
    this.memoryGuard.stop();
    await Promise.all([...this.runContexts.values()].map((context) => context.close()));
    const launching = this.launching;
    if (launching) await launching.catch(() => undefined);
    const browser = this.browser;
    this.browser = undefined;
    if (browser) await browser.close().catch(() => undefined);
    if (this.tempDir) {
      await rm(this.tempDir, { recursive: true, force: true });
      this.tempDir = undefined;
    }
  }

  private async captureOnce(
    url: string,
    signal: AbortSignal | undefined,
    timeoutMs: number,
    capturing: CaptureContext,
  ): Promise<Buffer> {
    const browser = await this.getBrowser();
    throwIfCancelled(signal); // it may have fired while the browser launched
    const deadline = Date.now() + timeoutMs;
    const remaining = () => Math.max(1, deadline - Date.now());
    let tab: Page | undefined;
    let context: BrowserContext | undefined;
    let timedOut = false;
    let aborted = false;
    let reusable = false;
    let crashed = false;
    const onCrash = () => {
      crashed = true;
    };
    const stopsBefore = this.memoryGuard.stoppedRenderers;
    // Closing the tab makes its pending Playwright calls reject, which is how the deadline and
    // the signal stop a stuck page (the context is the run's and stays open for its other
    // captures); every step also races `stopped` because a call caught mid-way (a context or
    // tab being created) may never settle.
    let signalStop: (reason: Error) => void = () => undefined;
    const stopped = new Promise<never>((_, reject) => {
      signalStop = reject;
    });
    stopped.catch(() => undefined);
    let stepFrom = performance.now();
    const step = async <T>(operation: Promise<T>, name: CaptureStep): Promise<T> => {
      try {
        return await Promise.race([operation, stopped]);
      } finally {
        const now = performance.now();
        this.stepMs[name] += now - stepFrom;
        stepFrom = now;
      }
    };
    const stop = () => {
      signalStop(new Error('capture stopped'));
      void tab?.close().catch(() => undefined);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, timeoutMs);
    const onAbort = () => {
      aborted = true;
      stop();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    // Refusals of the run's proxy from before this capture are another page's.
    const refusalsBefore = capturing.refusals.length;
    let network: NetworkQuiet | undefined;
    try {
      const taking = capturing.takeTab(browser);
      // A tab that arrives after the capture was stopped is closed, not leaked.
      taking.then(
        (late) => {
          if (timedOut || aborted) void late.tab.close().catch(() => undefined);
        },
        () => undefined,
      );
      ({ tab, context } = await step(taking, 'tab'));
      tab.setDefaultTimeout(timeoutMs);
      tab.on('crash', onCrash);
      network = trackNetwork(tab);
      const response = await step(tab.goto(url, { waitUntil: 'load', timeout: remaining() }), 'load');
      const refusal = response?.headers()[REFUSAL_HEADER];
      if (refusal) {
        reusable = true;
        throw new PageError('unprocessable_url', decodeURIComponent(refusal));
      }
      if (response && response.status() >= 400) {
        reusable = true;
        throw new PageError('http_error', `the page answered HTTP ${response.status()}`);
      }
      // Late requests (lazy images, scripts the `load` handlers start) follow `load`: a page that
      // started none by the measure and has none in flight is done (no fixed pause for the common
      // static page); otherwise wait for the network to go quiet, not long for chatty pages.
      let startedAtLoad = network.started;
      const page = tab;
      const tracked = network;
      // A page that sends the reader on at load (a meta refresh) is measured where it leads; the
      // requests that count as late are then those after that page's load, not its own loading.
      const measure = () =>
        evaluateFollowingNavigations(
          () => page.evaluate<{ width: number; height: number }>(this.measureScript),
          async () => {
            await page.waitForLoadState('load', { timeout: remaining() });
            startedAtLoad = tracked.started;
          },
        );
      let size = await step(measure(), 'measure');
      if (network.inFlight > 0 || network.started > startedAtLoad) {
        await step(
          network.waitForQuiet(this.networkQuietMs, Math.min(this.networkIdleTimeoutMs, remaining())),
          'quiet',
        );
        size = await step(measure(), 'measure'); // late images may have changed the height
      }
      const width = Math.max(1, Math.min(Math.ceil(size.width), this.maxPageWidth));
      const height = Math.max(1, Math.min(Math.ceil(size.height), this.maxPageHeight));
      // The DevTools call Playwright's full-page screenshot ends with, sent directly: Playwright's
      // own steps before it (a caret-hiding style added to and removed from every frame, each a
      // style recalculation of the whole page, and four more round trips) cost 10–20% of a long
      // page's capture. Same image: the page's full size, cut at the caps, scale 1.
      const session = await step(this.devtoolsOf(page, context), 'screenshot');
      const shot = await step(
        captureRetryingNoFrame(() =>
          session.send('Page.captureScreenshot', {
            format: 'png',
            clip: { x: 0, y: 0, width, height, scale: 1 },
            captureBeyondViewport: width > VIEWPORT.width || height > VIEWPORT.height,
          }),
        ),
        'screenshot',
      );
      const png = Buffer.from(shot.data, 'base64');
      reusable = true;
      return png;
    } catch (error) {
      reusable &&= !timedOut && !aborted;
      if (aborted) throw cancelled();
      if (crashed && this.memoryGuard.stoppedRenderers > stopsBefore) {
        throw new PageError(
          'too_large',
          `the page used more than ${this.config.screenshotMemoryLimitMb} MB of memory in the browser (WEBDATA_SCREENSHOT_MEMORY_MB), so its renderer was stopped`,
        );
      }
      if (timedOut || (error instanceof Error && error.name === 'TimeoutError')) {
        throw new PageError('timeout', `the page did not render within ${timeoutMs} ms`);
      }
      // An HTTPS page (or redirect) the proxy refused fails as a tunnel error; say why.
      const lastRefusal = capturing.refusals.slice(refusalsBefore).at(-1);
      if (lastRefusal && /ERR_TUNNEL_CONNECTION_FAILED/.test(String(error))) throw lastRefusal;
      if (error instanceof PageError) throw error;
      if (this.closed) throw new PageError('cancelled', 'the screenshot service was closed');
      if (!browser.isConnected()) throw new BrowserLost('the browser went away', { cause: error });
      if (context && (!capturing.isCurrent(context) || isTargetClosed(error))) {
        // Not closed by this capture (its stops are handled above): the context went away
        // underneath. Its 'close' event may not have been seen yet, so it is dropped here.
        capturing.forget(context);
        throw new BrowserLost('the browser context was closed underneath', { cause: error });
      }
      throw describeBrowserError(error);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      tab?.off('crash', onCrash);
      network?.stop();
      // A tab whose capture ended cleanly serves the run's next capture; any other is closed
      // (a wedged close must not hold the rendering slot forever: giveBack waits 5 s at most).
      if (tab && context) {
        const givingFrom = performance.now();
        await capturing.giveBack(tab, context, reusable);
        this.stepMs.giveBack += performance.now() - givingFrom;
      }
    }
  }

  private async getBrowser(): Promise<Browser> {
    if (this.browser?.isConnected()) return this.browser;
    if (this.closed) throw new PageError('screenshot_unavailable', 'the screenshot service is closed');
    if (this.launchFailure && Date.now() - this.launchFailure.at < this.relaunchBackoffMs) {
      throw new PageError('screenshot_unavailable', this.launchFailure.reason);
    }
    if (!this.launching) {
      this.launching = this.launch().finally(() => {
        this.launching = undefined;
      });
    }
    return this.launching;
  }

  private async launch(): Promise<Browser> {
    const location = locateChromium(this.config.chromiumPath, this.options.env);
    if ('reason' in location) throw new PageError('screenshot_unavailable', location.reason);
    this.tempDir ??= await mkdtemp(join(tmpdir(), 'webdata-chromium-'));
    // Loaded on first use: playwright-core alone adds about 86 MB to a process that never takes a screenshot.
    const { chromium } = await import('playwright-core');
    let browser: Browser;
    try {
      const executable = await location.prepare();
      const options: LaunchOptions = {
        executablePath: executable.path,
        // Chromium's own temporary files (its process-singleton socket folder) go in our folder, which
        // close() removes: in the system's, a browser that crashed or was killed left one behind each time.
        env: { ...process.env, ...executable.env, TMPDIR: this.tempDir },
        headless: true,
        // Playwright turns Chromium's popup blocker off; kept on, a page's window.open and links aimed
        // at a new window without a user's click (there never is one) open nothing.
        ignoreDefaultArgs: ['--disable-popup-blocking'],
        timeout: LAUNCH_TIMEOUT_MS,
        downloadsPath: join(this.tempDir, 'downloads'),
        // The server decides when to stop; Playwright still kills the browser if the process exits.
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
        args: [
          ...CHROMIUM_ARGS,
          ...POPUP_GUARD_ARGS,
          `--disk-cache-dir=${join(this.tempDir, 'cache')}`,
          ...(this.config.allowPrivateNetworks ? [] : WEBRTC_GUARD_ARGS),
          ...(this.options.extraChromiumArgs ?? []),
        ],
      };
      for (let attempt = 1; ; attempt++) {
        try {
          browser = await chromium.launch(options);
          break;
        } catch (error) {
          if (attempt >= LAUNCH_ATTEMPTS || this.closed) throw error;
          await sleep(LAUNCH_RETRY_PAUSE_MS);
        }
      }
    } catch (error) {
      const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
      const reason = `Chromium ${location.description} failed to start (${message}); install Chromium (apt-get install chromium) or set WEBDATA_CHROMIUM_PATH`;
      this.launchFailure = { reason, at: Date.now() };
      throw new PageError('screenshot_unavailable', reason, { cause: error });
    }
    this.launchFailure = undefined;
    this.launches++;
    if (this.closed) {
      await browser.close().catch(() => undefined);
      throw new PageError('screenshot_unavailable', 'the screenshot service is closed');
    }
    browser.on('disconnected', () => {
      if (this.browser === browser) this.browser = undefined;
    });
    this.browser = browser;
    return browser;
  }
}

function cancelled(): PageError {
  return new PageError('cancelled', 'the screenshot was cancelled');
}

function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw cancelled();
}

/** Playwright's error for a call on a tab, context or browser that was closed meanwhile. */
function isTargetClosed(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error.name === 'TargetClosedError' ||
      /Target page, context or browser has been closed|Target closed|Session closed/.test(error.message))
  );
}

function unwrapLost(error: unknown): unknown {
  return error instanceof BrowserLost
    ? new PageError('fetch_failed', 'the browser crashed while rendering the page', { cause: error.cause })
    : error;
}

/** Turns Playwright's navigation errors (`net::ERR_…`, downloads) into PageErrors. */
function describeBrowserError(error: unknown): PageError {
  const message = error instanceof Error ? error.message : String(error);
  const firstLine = message.split('\n')[0] ?? message;
  if (/Download is starting/i.test(message)) {
    return new PageError('unsupported_content', 'the URL starts a download, not a page', { cause: error });
  }
  const net = /net::(ERR_[A-Z_]+)/.exec(message);
  if (net)
    return new PageError('fetch_failed', `the browser could not load the page (${net[1]})`, { cause: error });
  return new PageError('fetch_failed', `the browser could not render the page: ${firstLine}`, {
    cause: error,
  });
}
