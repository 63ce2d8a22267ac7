import { setTimeout as delay } from 'node:timers/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { GuardedProxy } from './guarded-proxy.js';

/** How a {@link CaptureContext} opens a browser context and starts the guard's proxy. */
export interface CaptureContextOptions {
  /** Opens a browser context on `browser`, sending its traffic through `proxy` when there is one. */
  open(browser: Browser, proxy: GuardedProxy | undefined): Promise<BrowserContext>;
  /** Starts the guarded proxy of this context; undefined when private networks are allowed. */
  startProxy: (() => Promise<GuardedProxy>) | undefined;
  /**
   * How long the context stays open after its last capture ended (ms). 0
   * closes it as soon as its captures end (a capture outside any run).
   */
  idleMs: number;
  /** Called once when the context is closed for good (idle, ended, or the service closing). */
  onClosed?: (() => void) | undefined;
}

/** Most a wedged close of a page or context may hold a rendering slot. */
const CLOSE_WAIT_MS = 5000;

/**
 * The browser context of one crawl run's captures, with its tabs and its
 * guarded proxy: a run's pages share one renderer and one HTTP cache (a fresh
 * context per page cost half the throughput: a new renderer process and a
 * cold cache each time), while two runs (and so two owners) never share
 * cookies, storage or cache. Concurrent captures of the run each take a tab;
 * a tab whose capture ended cleanly is kept for the next one.
 *
 * Opened on the first capture, reopened when the context or the browser went
 * away underneath, closed `idleMs` after the last capture ended (the run is
 * over, or no longer taking screenshots in this process) or by {@link close}.
 */
export class CaptureContext {
  private users = 0;
  private context: BrowserContext | undefined;
  private opening: Promise<BrowserContext> | undefined;
  private proxy: GuardedProxy | undefined;
  private proxyStarting: Promise<GuardedProxy> | undefined;
  private idleTabs: Page[] = [];
  /** Tabs this opened for captures; any other page of the context is a popup the page opened. */
  private readonly ownTabs = new WeakSet<Page>();
  /** Tabs whose renderer died (Playwright's 'crash'): never handed out again. */
  private readonly crashedTabs = new WeakSet<Page>();
  /** `newPage` calls in flight: their tab's `page` event comes before the call settles. */
  private readonly tabsOpening = new Set<Promise<unknown>>();
  /** Popups closed so far (window.open, target=_blank). */
  popupsClosed = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  private closing: Promise<void> | undefined;

  constructor(private readonly options: CaptureContextOptions) {}

  /** True once closed for good; a closed one is never used again. */
  get closed(): boolean {
    return this.closing !== undefined;
  }

  /** No capture is using it (it waits for the run's next one, or its idle time-out). */
  get idle(): boolean {
    return this.users === 0 && !this.closed;
  }

  /** Whether a browser context is open right now. */
  get isOpen(): boolean {
    return this.context !== undefined;
  }

  /** The guarded proxy's refusals so far (empty without a proxy). */
  get refusals(): readonly Error[] {
    return this.proxy?.refusals ?? [];
  }

  /** A capture starts using this context: it stays open at least until the matching {@link leave}. */
  enter(): void {
    this.users++;
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }

  /**
   * A capture is done with this context. The last one out starts the idle
   * timer (or, with `idleMs` 0, closes it; the promise settles once closed).
   */
  leave(): Promise<void> {
    this.users = Math.max(0, this.users - 1);
    if (this.users > 0 || this.closed) return Promise.resolve();
    if (this.options.idleMs <= 0) return this.close();
    this.idleTimer = setTimeout(() => void this.close(), this.options.idleMs);
    // An idle context must not keep the process alive.
    this.idleTimer.unref();
    return Promise.resolve();
  }

  /**
   * A tab for one capture in this context on `browser`: an idle one, or a
   * new one (opening the context first if it is not open or went away).
   */
  async takeTab(browser: Browser): Promise<{ tab: Page; context: BrowserContext }> {
    const context = await this.openOn(browser);
    for (let tab = this.idleTabs.pop(); tab; tab = this.idleTabs.pop()) {
      if (tab.isClosed()) continue;
      // Its renderer died while it waited (stopped by the memory guard, or crashed): a crashed
      // tab is not closed, but every call on it fails.
      if (this.crashedTabs.has(tab)) {
        void tab.close().catch(() => undefined);
        continue;
      }
      return { tab, context };
    }
    const opening = context.newPage().then((tab) => {
      this.ownTabs.add(tab);
      tab.once('crash', () => this.crashedTabs.add(tab));
      return tab;
    });
    const settled = opening.then(
      () => undefined,
      () => undefined,
    );
    this.tabsOpening.add(settled);
    void settled.then(() => this.tabsOpening.delete(settled));
    return { tab: await opening, context };
  }

  /**
   * Closes a page of the context that no capture opened: a popup (window.open,
   * a link or form aimed at a new window) that got past Chromium's popup
   * blocker (kept on: `ScreenshotService`'s launch). A popup outlives the
   * capture of the page that opened it (it is a page of the run's context): a
   * page opening copies of itself had 125 tabs and 1.8 GB in the run's context
   * after a few captures. Screenshots are of the page asked for, never of its popups.
   */
  private closeIfPopup(page: Page): void {
    void Promise.all([...this.tabsOpening]).then(() => {
      if (this.ownTabs.has(page)) return;
      this.popupsClosed++;
      void page.close().catch(() => undefined);
    });
  }

  /**
   * Hands a tab back: kept for the next capture when `reusable` (its capture
   * ended cleanly) and its context is still this one's, closed otherwise.
   */
  async giveBack(tab: Page, context: BrowserContext, reusable: boolean): Promise<void> {
    if (reusable && !this.closed && context === this.context && !tab.isClosed()) {
      this.idleTabs.push(tab);
      return;
    }
    await Promise.race([tab.close().catch(() => undefined), delay(CLOSE_WAIT_MS)]);
  }

  /** Whether `context` is still the one this holds (false once it was closed underneath or replaced). */
  isCurrent(context: BrowserContext): boolean {
    return context === this.context;
  }

  /** Stops using `context` (it was closed underneath): the next capture opens a new one. */
  forget(context: BrowserContext): void {
    if (this.context !== context) return;
    this.context = undefined;
    this.idleTabs = [];
    void context.close().catch(() => undefined);
  }

  /** Closes the browser context and the proxy, for good. Idempotent. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      clearTimeout(this.idleTimer);
      const opening = this.opening;
      if (opening) await opening.catch(() => undefined);
      const context = this.context;
      this.context = undefined;
      this.idleTabs = [];
      if (context) await Promise.race([context.close().catch(() => undefined), delay(CLOSE_WAIT_MS)]);
      const proxy = this.proxy ?? (await this.proxyStarting?.catch(() => undefined));
      this.proxy = undefined;
      await proxy?.close();
      this.options.onClosed?.();
    })();
    return this.closing;
  }

  private async openOn(browser: Browser): Promise<BrowserContext> {
    if (this.closed) throw new Error('the capture context is closed');
    if (this.context && this.context.browser() === browser) return this.context;
    if (this.context) {
      // The browser was launched again: the old context died with the old browser.
      this.context = undefined;
      this.idleTabs = [];
    }
    this.opening ??= this.open(browser).finally(() => {
      this.opening = undefined;
    });
    return this.opening;
  }

  private async open(browser: Browser): Promise<BrowserContext> {
    if (this.options.startProxy && !this.proxy) {
      this.proxyStarting ??= this.options.startProxy();
      this.proxy = await this.proxyStarting;
    }
    const context = await this.options.open(browser, this.proxy);
    if (this.closed) {
      // Closed while it opened: not leaked.
      await context.close().catch(() => undefined);
      throw new Error('the capture context is closed');
    }
    // Closed underneath (a crash of its renderer, the browser gone, a close from outside): the
    // next capture opens a new one.
    context.on('page', (page) => this.closeIfPopup(page));
    context.on('close', () => {
      if (this.context === context) {
        this.context = undefined;
        this.idleTabs = [];
      }
    });
    this.context = context;
    return context;
  }
}
