import { setMaxListeners } from 'node:events';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { defaultConfig, type ServerConfig } from './config.js';
import { ConverterPool } from './content/index.js';
import { processItem } from './engine/process-item.js';
import { RunEvents } from './engine/run-events.js';
import { RunService } from './engine/run-service.js';
import { WorkerPool } from './engine/worker-pool.js';
import { DefaultExtractionEngine, type ExtractionEngine, ModelExtractionEngine } from './extract/index.js';
import { PageFetcher } from './fetch/index.js';
import type { FetchedPage } from './fetch/types.js';
import { buildApi } from './http/build-api.js';
import type { ApiContext } from './http/context.js';
import { newId } from './ids.js';
import { type ChromiumLocation, locateChromium, ScreenshotService } from './screenshots/index.js';
import { UrlSigner } from './screenshots/signed-url.js';
import { SqliteStore } from './store/sqlite/sqlite-store.js';
import type { Store } from './store/store.js';

/** How long a claimed item stays leased: the page time-out plus room for conversion and screenshots. */
const leaseMsFor = (config: ServerConfig) => config.pageTimeoutMs * 2 + 30_000;

/**
 * One Web Data Service process: store, fetcher, engines, worker pool and API,
 * wired together. `listen()` starts serving and working; `close()` shuts down
 * gracefully (new requests get 503, in-flight items finish or go back to the
 * queue, nothing is lost).
 */
export class WebDataServer {
  readonly config: ServerConfig;
  readonly store: Store;
  readonly app: FastifyInstance;
  readonly pool: WorkerPool | null;
  readonly runs: RunService;
  private readonly closing = new AbortController();
  private readonly fetcher: PageFetcher;
  private readonly screenshots: ScreenshotService;
  private readonly converter: ConverterPool;
  private address: string | null = null;

  constructor(overrides: Partial<ServerConfig> = {}) {
    this.config = defaultConfig(overrides);
    // Every long poll listens for shutdown on this one signal.
    setMaxListeners(0, this.closing.signal);
    this.store = new SqliteStore(join(this.config.dataDir, 'webdata.sqlite'));
    const events = new RunEvents();
    this.fetcher = new PageFetcher(this.config);
    this.converter = new ConverterPool(this.config.convertThreads);
    this.screenshots = new ScreenshotService(this.config);
    const fallback = new DefaultExtractionEngine();
    const extractor: ExtractionEngine = this.config.llm
      ? new ModelExtractionEngine(this.config.llm, fallback)
      : fallback;
    const deps = {
      config: this.config,
      fetcher: this.fetcher,
      convert: (page: FetchedPage) => this.converter.convert(page),
      extractor,
      screenshots: this.screenshots,
    };
    this.pool = this.config.runWorkers
      ? new WorkerPool(this.store, (item, signal) => processItem(deps, item, signal), {
          workerId: newId('req').replace('req_', 'wrk_'),
          concurrency: this.config.workerConcurrency,
          leaseMs: leaseMsFor(this.config),
          idlePollMs: 500,
          onRunChanged: (runId) => events.notify(runId),
          onError: (error) => this.app.log.error({ err: error }, 'worker error'),
        })
      : null;
    this.runs = new RunService(this.store, events, this.config, this.pool);
    const context: ApiContext = {
      config: this.config,
      store: this.store,
      runs: this.runs,
      events,
      signer: new UrlSigner(this.config.dataDir),
      baseUrl: () =>
        this.config.publicUrl ?? this.address ?? `http://${this.config.host}:${this.config.port}`,
      closing: this.closing.signal,
    };
    this.app = buildApi(context);
  }

  /** The Chromium screenshots will use, or why there is none; neither unpacks nor starts it. */
  screenshotChromium(): ChromiumLocation {
    return locateChromium(this.config.chromiumPath);
  }

  /** Starts workers (after putting interrupted items back in the queue) and the HTTP listener; returns the base URL. */
  async listen(): Promise<string> {
    if (this.pool) {
      // Embedded: this process is the only worker, so whatever was running belonged to a process that is gone.
      const requeued = await this.store.requeueInterrupted({ all: true });
      if (requeued > 0) this.app.log.info({ requeued }, 'requeued interrupted work items');
      this.pool.start();
    }
    await this.app.listen({ host: this.config.host, port: this.config.port });
    const address = this.app.server.address();
    const port = typeof address === 'object' && address ? address.port : this.config.port;
    const host = this.config.host.includes(':') ? `[${this.config.host}]` : this.config.host;
    this.address = `http://${host}:${port}`;
    return this.address;
  }

  /** Graceful shutdown: refuse new requests, release long polls, drain workers for up to `drainMs`. */
  async close(drainMs = 10_000): Promise<void> {
    this.closing.abort();
    await this.pool?.stop(drainMs);
    await this.app.close();
    await this.screenshots.close();
    await this.converter.close();
    await this.fetcher.close();
    await this.store.close();
  }
}
