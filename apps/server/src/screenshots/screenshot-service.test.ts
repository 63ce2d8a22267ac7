import { createSocket } from 'node:dgram';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../config.js';
import { PageError } from '../errors.js';
import { locateChromium } from './chromium-locator.js';
import { decodePng, readPngSize } from './png.js';
import { ScreenshotService } from './screenshot-service.js';

const PAGE = `<!doctype html><html><head><style>
html, body, h1 { margin: 0; padding: 0; }
body { width: 1280px; height: 2000px; background: linear-gradient(#c00, #00c); }
</style></head><body><h1>fixture</h1></body></html>`;
const TALL = PAGE.replace('height: 2000px', 'height: 50000px');

/**
 * A loopback fixture site that counts hits per path and the most requests
 * in flight at once on /paired.
 */
async function startFixture() {
  const hits = new Map<string, number>();
  /** The Cookie header of each request to /cookie, in order ('' for none). */
  const cookies: string[] = [];
  // /paired holds its answers until two of its requests are in flight at once
  // (then 500 ms more, time for a third to show if the limit let one through),
  // so the peak seen does not depend on how fast a loaded machine opens tabs.
  let pairedInFlight = 0;
  let pairedPeak = 0;
  let pairSeen = false;
  const pairedHeld: Array<() => void> = [];
  /** Whether /late-hog pages may start filling memory (they ask /late-hog-go until they may). */
  let lateHogGo = false;
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const port = (server.address() as AddressInfo).port;
    const html = (body: string, status = 200) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      res.end(body);
    };
    switch (path) {
      case '/page':
        return html(PAGE);
      case '/tall':
        return html(TALL);
      case '/slow':
        setTimeout(() => html(PAGE), 1200);
        return;
      case '/paired': {
        pairedInFlight++;
        pairedPeak = Math.max(pairedPeak, pairedInFlight);
        let answered = false;
        const answer = () => {
          if (answered) return;
          answered = true;
          clearTimeout(fallback);
          pairedInFlight--;
          html(PAGE);
        };
        // Alone for this long means the captures never overlapped: answer so the test can fail.
        const fallback = setTimeout(answer, 15_000);
        if (pairSeen) {
          setTimeout(answer, 500);
          return;
        }
        pairedHeld.push(answer);
        if (pairedInFlight >= 2) {
          pairSeen = true;
          const held = pairedHeld.splice(0);
          setTimeout(() => {
            for (const release of held) release();
          }, 500);
        }
        return;
      }
      case '/hang':
        return; // never answers
      case '/late-hog':
        // Renders at once, then, when the test says so (after its capture), fills memory as /hog
        // does: the tab kept for the run's next capture still runs its page's scripts.
        return html(`${PAGE}<script>const ask = setInterval(async () => {
          if ((await (await fetch('/late-hog-go')).text()) !== 'go') return;
          clearInterval(ask);
          const held = [];
          for (let i = 0; i < 96; i++) held.push(new Uint8Array(16 << 20).fill(i + 1));
          for (;;) {}
        }, 100);</script>`);
      case '/late-hog-go':
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(lateHogGo ? 'go' : 'wait');
        return;
      case '/hog':
        // Fills 1.5 GB of ArrayBuffers (memory V8's heap limit does not count), then never yields:
        // the page never loads, and its renderer holds all of it until stopped.
        return html(`<script>const held = [];
          for (let i = 0; i < 96; i++) held.push(new Uint8Array(16 << 20).fill(i + 1));
          for (;;) {}</script>`);
      case '/popups':
        // Opens three copies of itself (window.open, with noopener, and a link aimed at a new
        // window): left open, each opens three more.
        return html(`<body style="margin:0"><div style="height:900px">popups</div><script>
          window.open('/popups?' + Math.random());
          window.open('/popups?' + Math.random(), '_blank', 'noopener');
          const a = document.createElement('a');
          a.href = '/popups?' + Math.random(); a.target = '_blank'; document.body.append(a); a.click();
        </script></body>`);
      case '/cookie':
        // Sets a cookie and records the one it was sent: shows which captures share a context.
        cookies.push(req.headers.cookie ?? '');
        res.writeHead(200, { 'content-type': 'text/html', 'set-cookie': 'visited=yes; Path=/' });
        res.end(PAGE);
        return;
      case '/pause':
        setTimeout(() => html('paused'), 1000);
        return;
      case '/webrtc': {
        // STUN and TURN over UDP to the port in ?stun=, while a fetch keeps the page loading for a second.
        const stun = new URL(req.url ?? '/', 'http://x').searchParams.get('stun');
        return html(`<body><script>
          const pc = new RTCPeerConnection({ iceServers: [
            { urls: 'stun:127.0.0.1:${stun}' },
            { urls: 'turn:127.0.0.1:${stun}?transport=udp', username: 'u', credential: 'c' },
          ] });
          pc.createDataChannel('probe');
          pc.createOffer().then((offer) => pc.setLocalDescription(offer));
          fetch('/pause');
        </script></body>`);
      }
      case '/refresh-stub':
        // A page that sends the reader on as soon as it loads, as Texinfo's index-entry stubs do.
        return html(
          '<html><head><meta http-equiv="Refresh" content="0; url=/page"></head><body>moved</body></html>',
        );
      case '/missing':
        return html('<h1>gone</h1>', 404);
      case '/redirect-to-private':
        res.writeHead(302, { location: `http://private.test:${port}/secret` });
        res.end();
        return;
      case '/mixed-images':
        return html(
          `<body style="margin:0"><img src="http://public.test:${port}/pixel.svg?ok">` +
            `<img src="http://private.test:${port}/secret-pixel.svg">` +
            `<img src="http://localhost:${port}/secret-pixel.svg"></body>`,
        );
      case '/late-image':
        // An image the page adds once it has loaded (as lazy loaders do), answered a little later.
        return html(
          `<!doctype html><html><head><style>html, body { margin: 0; padding: 0; } body { width: 1280px; }
          div { height: 1000px; } img { display: block; }</style></head><body><div></div><script>
          addEventListener('load', () => setTimeout(() => {
            const img = new Image(); img.src = '/late.svg'; document.body.append(img);
          }, 0));</script></body></html>`,
        );
      case '/late.svg':
        setTimeout(() => {
          res.writeHead(200, { 'content-type': 'image/svg+xml' });
          res.end('<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="1500"/>');
        }, 150);
        return;
      case '/pixel.svg':
      case '/secret-pixel.svg':
        res.writeHead(200, { 'content-type': 'image/svg+xml' });
        res.end('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
        return;
      default:
        return html('not found', 404);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    hits: (path: string) => hits.get(path) ?? 0,
    pairedPeak: () => pairedPeak,
    cookies: () => [...cookies],
    letLateHogsGo: () => {
      lateHogGo = true;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A loopback port nothing listens on (bound, then released). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

type Fixture = Awaited<ReturnType<typeof startFixture>>;

/** A UDP socket on 127.0.0.1 that counts the datagrams reaching it (a STUN/TURN canary). */
async function startUdpCanary() {
  const socket = createSocket('udp4');
  let packets = 0;
  socket.on('message', () => {
    packets++;
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    port: socket.address().port,
    packets: () => packets,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

/** Time for ICE gathering to send what it would after the capture ended. */
const ICE_SETTLE_MS = 1500;

async function captureError(promise: Promise<unknown>): Promise<PageError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof PageError) return error;
    throw error;
  }
  throw new Error('expected the capture to fail');
}

/** The browser process a service launched: a child of this process whose flags name the service's folder. */
function browserPid(service: ScreenshotService): number {
  const marker = service.temporaryDirectory;
  if (!marker) throw new Error('no browser yet');
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (ppid === process.pid && cmdline.includes(marker)) return Number(entry);
    } catch {
      // the process ended while we looked
    }
  }
  throw new Error('browser process not found');
}

/** These use the Chromium the server's lookup finds (the system's, else the bundled one). */
describe('ScreenshotService with the real Chromium', () => {
  let site: Fixture;
  let service: ScreenshotService;

  beforeAll(async () => {
    site = await startFixture();
    service = new ScreenshotService(
      defaultConfig({
        screenshotConcurrency: 2,
        // Generous: the machine may be busy; the time-out test passes its own.
        pageTimeoutMs: 20_000,
        allowPrivateNetworks: true,
      }),
      { maxPageHeight: 3000, networkIdleTimeoutMs: 600 },
    );
  });

  afterAll(async () => {
    await service?.close();
    await site?.close();
  });

  it('renders two pages in parallel in one browser, at the page size', async () => {
    const before = { ...service.stepMs };
    const [a, b] = await Promise.all([
      service.capture(site.url('/page')),
      service.capture(site.url('/page?b')),
    ]);
    expect(service.launches).toBe(1);
    for (const png of [a, b]) {
      expect(readPngSize(png)).toEqual({ width: 1280, height: 2000 });
      expect(decodePng(png)).toMatchObject({ width: 1280, height: 2000 });
    }
    expect(await service.unavailableReason()).toBeNull();
    // The step times count each capture's steps; a page that loads nothing after `load` has no quiet wait.
    for (const step of ['tab', 'load', 'measure', 'screenshot'] as const) {
      expect(service.stepMs[step]).toBeGreaterThan(before[step]);
    }
    expect(service.stepMs.quiet).toBe(before.quiet);
  });

  it('renders at most screenshotConcurrency pages at once', async () => {
    const pngs = await Promise.all([1, 2, 3].map((n) => service.capture(site.url(`/paired?${n}`))));
    expect(pngs.map(readPngSize)).toEqual(Array(3).fill({ width: 1280, height: 2000 }));
    expect(site.pairedPeak()).toBe(2);
    expect(service.launches).toBe(1);
  });

  it('waits for what the page loads after its load event (no fixed pause for pages that load nothing more)', async () => {
    const quietBefore = service.stepMs.quiet;
    expect(readPngSize(await service.capture(site.url('/late-image')))).toEqual({
      width: 1280,
      height: 2500,
    });
    expect(site.hits('/late.svg')).toBe(1);
    expect(service.stepMs.quiet).toBeGreaterThan(quietBefore);
  });

  it('captures a page that sends the reader on at load where it leads, as a redirect', async () => {
    // The navigation lands between `load` and the page's measure on most captures: several are taken.
    const before = site.hits('/page');
    const pngs = await Promise.all(
      Array.from({ length: 6 }, (_, n) => service.capture(site.url(`/refresh-stub?${n}`))),
    );
    expect(pngs.map(readPngSize)).toEqual(Array(6).fill({ width: 1280, height: 2000 }));
    expect(site.hits('/page') - before).toBe(6);
  });

  it('cuts giant pages at the height cap', async () => {
    expect(readPngSize(await service.capture(site.url('/tall')))).toEqual({ width: 1280, height: 3000 });
  });

  it('opens none of the popups a page asks for, so a page opening copies of itself does not multiply in the run context', async () => {
    const png = await service.capture(site.url('/popups'), { runKey: 'run-popups' });
    expect(readPngSize(png)).toEqual({ width: 1280, height: 900 });
    // No popup opens, in the system's Chromium (its popup blocker) and in the bundled headless
    // shell (which has none: --block-new-web-contents), so nothing loads the page a second time.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const hitsThen = site.hits('/popups');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(site.hits('/popups')).toBe(hitsThen);
    expect(hitsThen).toBe(1);
    const pages = service.browserContexts.flatMap((context) => context.pages());
    expect(pages.filter((page) => page.url().includes('/popups'))).toHaveLength(1); // the captured tab, kept for the run
  });

  it('gives up on a page that does not load in time', async () => {
    const started = Date.now();
    const error = await captureError(service.capture(site.url('/hang'), { timeoutMs: 1500 }));
    expect(error.code).toBe('timeout');
    expect(error.message).toMatch(/1500 ms/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
  });

  it('stops when the signal aborts, and refuses an already aborted signal', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const error = await captureError(service.capture(site.url('/hang?abort'), { signal: controller.signal }));
    expect(error.code).toBe('cancelled');
    const early = await captureError(service.capture(site.url('/page'), { signal: AbortSignal.abort() }));
    expect(early.code).toBe('cancelled');
  });

  it('reports error pages and unreachable hosts as page errors', async () => {
    expect((await captureError(service.capture(site.url('/missing')))).code).toBe('http_error');
    expect((await captureError(service.capture('ftp://127.0.0.1/file'))).code).toBe('unprocessable_url');
    const refused = await captureError(service.capture(`http://127.0.0.1:${await freePort()}/`));
    expect(refused.code).toBe('fetch_failed');
    expect(refused.message).toMatch(/ERR_CONNECTION_REFUSED/);
  });

  it("lets a page's WebRTC reach a loopback UDP canary when private networks are allowed (the canary works)", async () => {
    const canary = await startUdpCanary();
    try {
      await service.capture(site.url(`/webrtc?stun=${canary.port}`));
      await new Promise((resolve) => setTimeout(resolve, ICE_SETTLE_MS));
      expect(canary.packets()).toBeGreaterThan(0);
    } finally {
      await canary.close();
    }
  });

  it('launches a new browser after the old one crashes', async () => {
    const pid = browserPid(service);
    // The browser's temporary files go in the service's folder (removed on close), so a killed browser
    // leaves nothing in the system's: Chromium's process-singleton folder, where it makes one, lands there.
    const environment = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    expect(environment).toContain(`TMPDIR=${service.temporaryDirectory}`);
    process.kill(pid, 'SIGKILL');
    // Wait for Playwright to notice the disconnect.
    for (let i = 0; i < 50 && existsSync(`/proc/${pid}`); i++) await new Promise((r) => setTimeout(r, 50));
    const png = await service.capture(site.url('/page?after-crash'));
    expect(readPngSize(png)).toEqual({ width: 1280, height: 2000 });
    expect(service.launches).toBe(2);
  });

  it('closes the browser and removes its temporary folder', async () => {
    const folder = service.temporaryDirectory;
    expect(folder && existsSync(folder)).toBe(true);
    const pid = browserPid(service);
    await service.close();
    expect(existsSync(folder!)).toBe(false);
    expect(existsSync(`/proc/${pid}`) && !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z')).toBe(
      false,
    );
    expect((await captureError(service.capture(site.url('/page')))).code).toBe('screenshot_unavailable');
    expect(await service.unavailableReason()).toMatch(/closed/);
  });
});

/** Waits until `condition` holds (checked every 50 ms, for 10 s at most). */
async function eventually(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 50));
}

describe('ScreenshotService memory limit of a renderer', () => {
  let site: Fixture;
  let service: ScreenshotService;

  beforeAll(async () => {
    site = await startFixture();
    service = new ScreenshotService(
      defaultConfig({
        screenshotConcurrency: 2,
        pageTimeoutMs: 20_000,
        allowPrivateNetworks: true,
        screenshotMemoryLimitMb: 400,
      }),
      // Long enough for the run's kept tab to fill memory after its capture ended.
      { networkIdleTimeoutMs: 600, runContextIdleMs: 30_000 },
    );
  });

  afterAll(async () => {
    await service?.close();
    await site?.close();
  });

  it('stops the renderer of a page past the limit: that capture fails too_large, the next one renders', async () => {
    const error = await captureError(service.capture(site.url('/hog'), { runKey: 'run-hog' }));
    expect(error.code).toBe('too_large');
    expect(error.message).toMatch(/more than 400 MB of memory/);
    expect(service.memoryGuard.stoppedRenderers).toBeGreaterThanOrEqual(1);
    expect(service.launches).toBe(1); // the browser carried on
    const png = await service.capture(site.url('/page'), { runKey: 'run-hog' });
    expect(readPngSize(png)).toEqual({ width: 1280, height: 2000 });
  });

  it("stops the renderer of a page that fills memory after its capture, in the tab kept for the run's next one", async () => {
    const png = await service.capture(site.url('/late-hog'), { runKey: 'run-late-hog' });
    expect(readPngSize(png)).toEqual({ width: 1280, height: 2000 });
    const stopsBefore = service.memoryGuard.stoppedRenderers;
    // The run's context keeps the tab, and its page still runs.
    const kept = service.browserContexts
      .flatMap((context) => context.pages())
      .filter((page) => page.url().includes('/late-hog'));
    expect(kept).toHaveLength(1);
    const crashed = kept[0]!.waitForEvent('crash', { timeout: 20_000 });
    site.letLateHogsGo();
    await crashed;
    expect(service.memoryGuard.stoppedRenderers).toBeGreaterThan(stopsBefore);
    // The run's next capture gets a working tab (the crashed one is not handed out again).
    const next = await service.capture(site.url('/page'), { runKey: 'run-late-hog' });
    expect(readPngSize(next)).toEqual({ width: 1280, height: 2000 });
  });
});

describe('ScreenshotService browser context per crawl run', () => {
  let site: Fixture;
  let service: ScreenshotService;

  beforeAll(async () => {
    site = await startFixture();
    service = new ScreenshotService(
      defaultConfig({ screenshotConcurrency: 2, pageTimeoutMs: 20_000, allowPrivateNetworks: true }),
      { networkIdleTimeoutMs: 600, runContextIdleMs: 800 },
    );
  });

  afterAll(async () => {
    await service?.close();
    await site?.close();
  });

  it("reuses one context for a run's captures, concurrent ones included, and never shares it with another run", async () => {
    const first = await service.capture(site.url('/cookie?a1'), { runKey: 'run-a' });
    expect(readPngSize(first)).toEqual({ width: 1280, height: 2000 });
    await Promise.all([
      service.capture(site.url('/cookie?a2'), { runKey: 'run-a' }),
      service.capture(site.url('/page?a3'), { runKey: 'run-a' }),
    ]);
    expect(service.contextsOpened).toBe(1);
    expect(service.browserContexts).toHaveLength(1);
    // A capture of run A in flight keeps its context open (whatever the machine's speed) while run B takes one.
    const holding = new AbortController();
    const held = captureError(
      service.capture(site.url('/hang?a-held'), { runKey: 'run-a', signal: holding.signal }),
    );
    await service.capture(site.url('/cookie?b1'), { runKey: 'run-b' });
    expect(service.contextsOpened).toBe(2);
    expect(service.browserContexts).toHaveLength(2);
    holding.abort();
    expect((await held).code).toBe('cancelled');
    // Run A's second page was sent the cookie its first page set; run B's page was not.
    expect(site.cookies()).toEqual(['', 'visited=yes', '']);
  });

  it('gives a capture without a run key a context of its own, closed when it ends', async () => {
    const before = service.contextsOpened;
    await service.capture(site.url('/cookie?alone'));
    expect(service.contextsOpened).toBe(before + 1);
    expect(site.cookies().at(-1)).toBe('');
    // Closed before the capture returned: no open context shows the page.
    expect(service.browserContexts.some((c) => c.pages().some((p) => p.url().includes('alone')))).toBe(false);
  });

  it("closes a run's context once the run has taken no screenshot for the idle time", async () => {
    await eventually(() => service.browserContexts.length === 0);
    expect(service.browserContexts).toHaveLength(0);
    expect(service.openRunContexts).toBe(0);
    // The run's next capture (were it to take one) gets a new context, without the old cookies.
    const before = service.contextsOpened;
    await service.capture(site.url('/cookie?a4'), { runKey: 'run-a' });
    expect(service.contextsOpened).toBe(before + 1);
    expect(site.cookies().at(-1)).toBe('');
  });

  it('keeps a run context usable after a cancelled and a timed-out capture', async () => {
    const before = service.contextsOpened;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const stopped = await captureError(
      service.capture(site.url('/hang?run-cancel'), { runKey: 'run-c', signal: controller.signal }),
    );
    // Stopped by the signal (the page never answers; the time-out, 20 s, would say `timeout`).
    expect(stopped.code).toBe('cancelled');
    const late = await captureError(
      service.capture(site.url('/hang?run-timeout'), { runKey: 'run-c', timeoutMs: 1000 }),
    );
    expect(late.code).toBe('timeout');
    const png = await service.capture(site.url('/page?run-after'), { runKey: 'run-c' });
    expect(readPngSize(png)).toEqual({ width: 1280, height: 2000 });
    expect(service.contextsOpened).toBe(before + 1);
    // Only the tab that rendered is kept; the stopped captures' tabs are closed. Their closing is
    // not awaited by the capture (a stuck page's calls may never settle), so it may still be on its
    // way under load: seen as a second tab in a full suite at load 16.
    const [context] = service.browserContexts.filter((c) =>
      c.pages().some((p) => p.url().includes('run-after')),
    );
    expect(context).toBeDefined();
    await eventually(() => context!.pages().length === 1);
    expect(context!.pages().map((p) => p.url())).toEqual([expect.stringContaining('run-after')]);
  });

  it("opens a new context when the run's context is closed underneath, also in the middle of a capture", async () => {
    await service.capture(site.url('/page?d1'), { runKey: 'run-d' });
    const before = service.contextsOpened;
    const [context] = service.browserContexts.filter((c) => c.pages().some((p) => p.url().includes('d1')));
    expect(context).toBeDefined();
    await context!.close();
    const png = await service.capture(site.url('/page?d2'), { runKey: 'run-d' });
    expect(readPngSize(png)).toEqual({ width: 1280, height: 2000 });
    expect(service.contextsOpened).toBe(before + 1);
    // Closed while the capture waits for a slow page: the capture is tried again on a new context.
    const capturing = service.capture(site.url('/slow?d3'), { runKey: 'run-d' });
    await eventually(() =>
      service.browserContexts.some((c) => c.pages().some((p) => p.url().includes('d3'))),
    );
    const [busy] = service.browserContexts.filter((c) => c.pages().some((p) => p.url().includes('d3')));
    await busy!.close();
    expect(readPngSize(await capturing)).toEqual({ width: 1280, height: 2000 });
    expect(service.contextsOpened).toBe(before + 2);
  });

  it('opens a new context for a run after the browser crashed', async () => {
    await service.capture(site.url('/page?e1'), { runKey: 'run-e' });
    const before = service.contextsOpened;
    const pid = browserPid(service);
    process.kill(pid, 'SIGKILL');
    for (let i = 0; i < 50 && existsSync(`/proc/${pid}`); i++) await new Promise((r) => setTimeout(r, 50));
    const png = await service.capture(site.url('/page?e2'), { runKey: 'run-e' });
    expect(readPngSize(png)).toEqual({ width: 1280, height: 2000 });
    expect(service.contextsOpened).toBe(before + 1);
    expect(service.launches).toBe(2);
  });

  it('keeps at most screenshotConcurrency idle run contexts open, closing the least recently used first', async () => {
    // Its own service: concurrency 1, and an idle time-out no test waits for.
    const small = new ScreenshotService(
      defaultConfig({ screenshotConcurrency: 1, pageTimeoutMs: 20_000, allowPrivateNetworks: true }),
      { networkIdleTimeoutMs: 600, runContextIdleMs: 600_000 },
    );
    try {
      await small.capture(site.url('/page?g1'), { runKey: 'run-g1' });
      await small.capture(site.url('/page?g2'), { runKey: 'run-g2' });
      expect(small.contextsOpened).toBe(2);
      expect(small.openRunContexts).toBe(1);
      const shown = () => small.browserContexts.flatMap((c) => c.pages().map((p) => p.url()));
      // Its close was started with the capture's end; Chromium drops the context a moment later.
      await eventually(() => !shown().some((url) => url.includes('g1')));
      expect(shown().some((url) => url.includes('g1'))).toBe(false);
      expect(shown().some((url) => url.includes('g2'))).toBe(true);
    } finally {
      await small.close();
    }
  });

  it("closes every run's context with the service", async () => {
    await service.capture(site.url('/page?f1'), { runKey: 'run-f' });
    expect(service.openRunContexts).toBeGreaterThan(0);
    await service.close();
    expect(service.openRunContexts).toBe(0);
    expect(service.browserContexts).toHaveLength(0);
  });
});

describe('ScreenshotService guard against private addresses', () => {
  let site: Fixture;
  let service: ScreenshotService;

  beforeAll(async () => {
    site = await startFixture();
    service = new ScreenshotService(
      defaultConfig({
        screenshotConcurrency: 2,
        pageTimeoutMs: 20_000,
        allowPrivateNetworks: false,
      }),
      {
        networkIdleTimeoutMs: 600,
        // The guard's proxy resolves *.test to loopback addresses and may connect only to
        // 127.0.0.1 (standing in for a public address); 127.0.0.2 and 127.0.0.3 keep their
        // real class (loopback) and are refused, so nothing is ever sent past 127.0.0.1.
        resolveAll: async (host) => {
          const address = {
            'public.test': '127.0.0.1',
            'private.test': '127.0.0.2',
            'loopback.test': '127.0.0.3',
          }[host];
          if (!address) throw Object.assign(new Error(`unexpected lookup of ${host}`), { code: 'ENOTFOUND' });
          return [{ address, family: 4 }];
        },
        addressPolicy: (address) => address === '127.0.0.1',
      },
    );
  });

  afterAll(async () => {
    await service?.close();
    await site?.close();
  });

  it('refuses loopback URLs and names before rendering', async () => {
    for (const url of [
      site.url('/page'),
      `http://localhost:${site.port}/page`,
      `http://[::1]:${site.port}/`,
    ]) {
      expect((await captureError(service.capture(url))).code).toBe('unprocessable_url');
    }
    expect(site.hits('/page')).toBe(0);
  });

  it('refuses a page whose host resolves to loopback', async () => {
    const error = await captureError(service.capture(`http://loopback.test:${site.port}/page`));
    expect(error.code).toBe('unprocessable_url');
    expect(error.message).toMatch(/loopback/);
    expect(site.hits('/page')).toBe(0);
  });

  it('renders a public page but blocks its requests to private addresses', async () => {
    const png = await service.capture(`http://public.test:${site.port}/mixed-images`);
    expect(readPngSize(png).width).toBe(1280);
    expect(site.hits('/pixel.svg')).toBe(1);
    expect(site.hits('/secret-pixel.svg')).toBe(0);
  });

  it('sends no WebRTC UDP (STUN, TURN) past the guard: 0 packets reach a loopback canary', async () => {
    const canary = await startUdpCanary();
    try {
      await service.capture(`http://public.test:${site.port}/webrtc?stun=${canary.port}`);
      expect(site.hits('/pause')).toBeGreaterThan(0); // the page's script ran
      await new Promise((resolve) => setTimeout(resolve, ICE_SETTLE_MS));
      expect(canary.packets()).toBe(0);
    } finally {
      await canary.close();
    }
  });

  it('refuses a redirect to a private address', async () => {
    const error = await captureError(service.capture(`http://public.test:${site.port}/redirect-to-private`));
    expect(site.hits('/redirect-to-private')).toBe(1);
    expect(site.hits('/secret')).toBe(0);
    expect(error.code).toBe('unprocessable_url');
    expect(error.message).toMatch(/private\.test/);
  });

  it("keeps guarding a run's reused context: its sub-resources and redirects to private addresses are refused", async () => {
    const before = service.contextsOpened;
    const secretBefore = site.hits('/secret-pixel.svg');
    const pixelBefore = site.hits('/pixel.svg');
    for (const query of ['r1', 'r2']) {
      const png = await service.capture(`http://public.test:${site.port}/mixed-images?${query}`, {
        runKey: 'guarded-run',
      });
      expect(readPngSize(png).width).toBe(1280);
    }
    const error = await captureError(
      service.capture(`http://public.test:${site.port}/redirect-to-private?r3`, { runKey: 'guarded-run' }),
    );
    expect(error.code).toBe('unprocessable_url');
    expect(error.message).toMatch(/private\.test/);
    const again = await service.capture(`http://public.test:${site.port}/mixed-images?r4`, {
      runKey: 'guarded-run',
    });
    expect(readPngSize(again).width).toBe(1280);
    expect(service.contextsOpened).toBe(before + 1); // all four in one context
    expect(site.hits('/pixel.svg')).toBeGreaterThan(pixelBefore);
    expect(site.hits('/secret-pixel.svg')).toBe(secretBefore);
    expect(site.hits('/secret')).toBe(0);
  });
});

describe('ScreenshotService when Chromium fails to start once', () => {
  it('starts it a second time before refusing captures', async () => {
    // The Chromium the lookup finds, behind a script that exits at once on its first start
    // (what a start that dies on a loaded machine looks like to the service).
    const found = locateChromium(undefined);
    if ('reason' in found) throw new Error(found.reason);
    const chromium = await found.prepare();
    const dir = mkdtempSync(join(tmpdir(), 'webdata-flaky-chromium-'));
    const firstStart = join(dir, 'first-start');
    const script = join(dir, 'chromium');
    const exports = Object.entries(chromium.env)
      .map(([name, value]) => `export ${name}='${value}'\n`)
      .join('');
    writeFileSync(
      script,
      `#!/bin/sh\nif [ ! -e '${firstStart}' ]; then : > '${firstStart}'; exit 1; fi\n${exports}exec '${chromium.path}' "$@"\n`,
      { mode: 0o755 },
    );
    const site = await startFixture();
    const service = new ScreenshotService(
      defaultConfig({ chromiumPath: script, pageTimeoutMs: 20_000, allowPrivateNetworks: true }),
    );
    try {
      const png = await service.capture(site.url('/page'));
      expect(readPngSize(png)).toEqual({ width: 1280, height: 2000 });
      expect(existsSync(firstStart)).toBe(true);
      expect(service.launches).toBe(1);
      expect(await service.unavailableReason()).toBeNull();
    } finally {
      await service.close();
      await site.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('ScreenshotService without Chromium', () => {
  it('explains what is missing and fails captures with screenshot_unavailable', async () => {
    const service = new ScreenshotService(
      defaultConfig({ chromiumPath: '/nonexistent/chromium', allowPrivateNetworks: true }),
    );
    try {
      const reason = await service.unavailableReason();
      expect(reason).toMatch(/Chromium was not found at the configured path \/nonexistent\/chromium/);
      expect(reason).toMatch(/apt-get install chromium/);
      const error = await captureError(service.capture('http://127.0.0.1:1/'));
      expect(error.code).toBe('screenshot_unavailable');
      expect(error.message).toBe(reason);
      expect(service.launches).toBe(0);
    } finally {
      await service.close();
    }
  });

  it('finds nothing when the usual places are empty and says where it looked', async () => {
    // Only meaningful where Chromium is not at the usual paths; here we point the env at a missing file.
    const service = new ScreenshotService(defaultConfig({ chromiumPath: undefined }), {
      env: { WEBDATA_CHROMIUM_PATH: '/nonexistent/from-env' },
    });
    try {
      expect(await service.unavailableReason()).toMatch(/\/nonexistent\/from-env.*WEBDATA_CHROMIUM_PATH/);
    } finally {
      await service.close();
    }
  });

  it('reports a program that is not a browser as failing to start', async () => {
    const service = new ScreenshotService(
      defaultConfig({ chromiumPath: '/bin/false', allowPrivateNetworks: true }),
    );
    try {
      const reason = await service.unavailableReason();
      expect(reason).toMatch(/^Chromium \/bin\/false \(configured\) failed to start/);
      const error = await captureError(service.capture('http://127.0.0.1:1/'));
      expect(error.code).toBe('screenshot_unavailable');
    } finally {
      await service.close();
    }
  });
});
