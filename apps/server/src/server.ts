import { setMaxListeners } from 'node:events';
import { mkdirSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { defaultConfig, type ServerConfig } from './config.js';
import type { ConvertInput } from './content/convert-fetched.js';
import { ConverterPool } from './content/index.js';
import { processItem } from './engine/process-item.js';
import { RunEvents } from './engine/run-events.js';
import { RunService } from './engine/run-service.js';
import { WorkerPool } from './engine/worker-pool.js';
import {
  DefaultExtractionEngine,
  type ExtractionEngine,
  ExtractionThreads,
  ModelExtractionEngine,
  ThreadedSchemaValidator,
} from './extract/index.js';
import { PageFetcher } from './fetch/index.js';
import { buildApi } from './http/build-api.js';
import type { ApiContext } from './http/context.js';
import { newId } from './ids.js';
import { LoopTurns } from './loop-turns.js';
import { type ChromiumLocation, locateChromium, ScreenshotService } from './screenshots/index.js';
import { UrlSigner } from './screenshots/signed-url.js';
import { OpenAiEmbedder } from './search/embeddings.js';
import { backfillWordIndexes } from './search/word-backfill.js';
import { WordIndexThreads } from './search/word-index-threads.js';
import { openStore } from './store/open-store.js';
import type { InterruptedItems, Store } from './store/store.js';

/**
 * Distinct schemas one owner may have waiting for the schema thread before
 * requests get 503: above a key's rate-limit burst, so a client within its
 * rate never sees it; owners take turns, so a long queue delays only its owner.
 */
const SCHEMAS_WAITING_PER_OWNER = 64;

/** How long after the workers start the word-index backfill begins: start-up's own work goes first. */
const WORD_BACKFILL_DELAY_MS = 2000;

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
  /** The screenshot service (its counters tell how many browser contexts runs opened). */
  readonly screenshots: ScreenshotService;
  /** Semantic search's embeddings client, when `WEBDATA_EMBEDDINGS_*` configure one. */
  private readonly embedder: OpenAiEmbedder | undefined;
  private readonly converter: ConverterPool;
  private readonly filling: ExtractionThreads;
  private readonly schemas: ThreadedSchemaValidator;
  private address: string | null = null;
  private readonly events: RunEvents;
  /** The word-index backfill of this process's start (see {@link backfillWords}), awaited by `close`. */
  private wordBackfill: Promise<void> | null = null;
  private reaper: NodeJS.Timeout | null = null;
  private stopWatching: (() => Promise<void>) | null = null;

  constructor(overrides: Partial<ServerConfig> = {}) {
    this.config = defaultConfig(overrides);
    // The data directory holds the signing secret and the first key whatever the store (SQLite makes it too).
    mkdirSync(this.config.dataDir, { recursive: true });
    // Every long poll listens for shutdown on this one signal.
    setMaxListeners(0, this.closing.signal);
    this.store = openStore(this.config, (error) =>
      this.app.log.warn({ err: error }, 'store connection error'),
    );
    const events = new RunEvents();
    this.events = events;
    this.fetcher = new PageFetcher(this.config);
    this.converter = new ConverterPool(this.config.convertThreads);
    this.screenshots = new ScreenshotService(this.config);
    this.embedder = this.config.embeddings ? new OpenAiEmbedder(this.config.embeddings) : undefined;
    this.schemas = new ThreadedSchemaValidator({
      budgetMs: this.config.schemaBudgetMs,
      maxWaitingPerOwner: SCHEMAS_WAITING_PER_OWNER,
    });
    // The default engine's reading and filling of a page get as many threads as conversion.
    this.filling = new ExtractionThreads(this.config.convertThreads);
    const fallback = new DefaultExtractionEngine(this.schemas, this.filling);
    const extractor: ExtractionEngine = this.config.llm
      ? new ModelExtractionEngine(this.config.llm, fallback, {
          schemas: this.schemas,
          // Where the two engines both answer and differ, the log says so (a check of either).
          onComparison: (comparison) => {
            if (comparison.differed.length > 0)
              this.app.log.info({ comparison }, 'the model and the default engine answered differently');
          },
        })
      : fallback;
    const turns = new LoopTurns();
    // A page's extraction starts in a turn of its own (with no threads to spare its filling runs on this
    // thread, milliseconds for a large schema), so pages the converter answered together do not hold the
    // API for all of theirs at once.
    const extractInTurn: ExtractionEngine = {
      extract: (input) => turns.take().then(() => extractor.extract(input)),
    };
    const deps = {
      config: this.config,
      fetcher: this.fetcher,
      convert: (page: ConvertInput) => this.converter.convert(page),
      extractor: extractInTurn,
      screenshots: this.screenshots,
      embedder: this.embedder,
    };
    this.pool = this.config.runWorkers
      ? new WorkerPool(
          this.store,
          (item, signal, started, hostWait) => processItem(deps, item, signal, started, hostWait),
          {
            workerId: newId('req').replace('req_', 'wrk_'),
            concurrency: this.config.workerConcurrency,
            leaseMs: this.config.leaseMs,
            idlePollMs: 500,
            // The only worker of an embedded store keeps a pool's worth of claimed items ready; where
            // other processes share the queue they are left to them.
            reserve: this.store.shared ? 0 : this.config.workerConcurrency,
            onRunChanged: (runId) => events.notify(runId),
            onError: (error) => this.app.log.error({ err: error }, 'worker error'),
          },
        )
      : null;
    this.runs = new RunService(this.store, events, this.config, this.pool, this.schemas);
    const context: ApiContext = {
      config: this.config,
      store: this.store,
      runs: this.runs,
      events,
      signer: new UrlSigner(this.config.dataDir),
      baseUrl: () =>
        this.config.publicUrl ?? this.address ?? `http://${this.config.host}:${this.config.port}`,
      closing: this.closing.signal,
      turns,
      embedder: this.embedder,
    };
    this.app = buildApi(context);
  }

  /** The Chromium screenshots will use, or why there is none; neither unpacks nor starts it. */
  screenshotChromium(): ChromiumLocation {
    return locateChromium(this.config.chromiumPath);
  }

  /** The store this process uses, for banners and logs. */
  get storeDescription(): string {
    return this.store.description;
  }

  /**
   * Starts watching other processes' run changes (shared store), puts
   * interrupted items back in the queue (or starts a reaper of expired leases
   * when the store is shared), then, unless this is a worker-only process,
   * the HTTP listener, and last the converter threads and the workers.
   * Resolves when all of it runs, with the base URL (null for a worker).
   */
  async listen(): Promise<string | null> {
    if (this.store.watchRuns) {
      this.stopWatching = await this.store.watchRuns(
        (change) => {
          this.events.notify(change.id);
          // A cancel or delete made by another process stops this process's fetches for the run.
          if (change.status === 'cancelled' || change.status === 'deleted') this.pool?.abortRun(change.id);
          if (change.status === 'queued') this.pool?.poke();
        },
        () => this.events.notifyAll(),
      );
    }
    if (this.pool) {
      if (this.store.shared) {
        // Other processes share the queue: only leases that expired belong to a process that is gone.
        const reap = () =>
          this.store
            .requeueInterrupted({ all: false, maxStarts: this.config.maxPageStarts })
            .then((interrupted) => this.logInterrupted(interrupted, 'requeued expired leases'))
            .catch((error) => this.app.log.warn({ err: error }, 'reaper'));
        this.reaper = setInterval(reap, Math.max(500, this.config.leaseMs / 2));
        this.reaper.unref();
      } else {
        // Embedded: this process is the only worker, so whatever was running belonged to a process that is gone.
        const interrupted = await this.store.requeueInterrupted({
          all: true,
          maxStarts: this.config.maxPageStarts,
        });
        this.logInterrupted(interrupted, 'requeued interrupted work items');
      }
    }
    // The store is open and its runs are as they will be served: the port answers from here. The converter
    // threads start after (a quarter of a second of loading), so a restart leaves the port refusing
    // connections that much less; a run created meanwhile waits in the queue, as it would for a busy pool.
    if (this.config.serveApi) {
      await this.app.listen({ host: this.config.host, port: this.config.port });
      const address = this.app.server.address();
      const port = typeof address === 'object' && address ? address.port : this.config.port;
      const host = this.config.host.includes(':') ? `[${this.config.host}]` : this.config.host;
      this.address = `http://${host}:${port}`;
    }
    if (this.pool) {
      // The converter threads start and load their code before the workers take the first item (a few
      // hundred ms of CPU, tens of MB), so the first crawl's first page does not wait for them: its links
      // are read from its conversion, and the rest of the crawl waits for those.
      await this.converter.start();
      this.pool.start();
      this.wordBackfill = this.backfillWords(this.pool);
    }
    return this.address;
  }

  /**
   * Logs what the start or the reaper did with interrupted work: how many items went back to the
   * queue, and each page failed `crashed`, by name, since an operator looking for what keeps
   * killing the process needs the page, not a count.
   */
  private logInterrupted({ requeued, crashed }: InterruptedItems, message: string): void {
    if (requeued > 0) this.app.log.info({ requeued }, message);
    for (const page of crashed) {
      this.app.log.warn(
        page,
        'page failed as crashed: its work started as many times as allowed and never ended',
      );
    }
  }

  /**
   * Gives the search documents indexed before word indexes existed theirs (search/word-backfill.ts),
   * once, a while after the start: their bodies read one at a time, their indexes built on a thread
   * of their own, waiting whenever the workers have pages in hand. Logs what it did when there was
   * anything to do; a failure (the store away) only ends it (the next start tries again).
   */
  private async backfillWords(pool: WorkerPool): Promise<void> {
    const signal = this.closing.signal;
    const threads = new WordIndexThreads(this.config.convertThreads > 0 ? 1 : 0);
    try {
      await sleep(WORD_BACKFILL_DELAY_MS, undefined, { signal, ref: false });
      const started = performance.now();
      const counts = await backfillWordIndexes(this.store.search, {
        build: (text) => threads.build(text),
        busy: () => pool.inFlight > 0,
        signal,
      });
      if (counts.checked > 0)
        this.app.log.info(
          { ...counts, stopped: signal.aborted, ms: Math.round(performance.now() - started) },
          'search word indexes backfilled',
        );
    } catch (error) {
      if (!signal.aborted) this.app.log.warn({ err: error }, 'search word index backfill stopped');
    } finally {
      await threads.close();
    }
  }

  /** Graceful shutdown: refuse new requests, release long polls, drain workers for up to `drainMs`. */
  async close(drainMs = 10_000): Promise<void> {
    this.closing.abort();
    if (this.reaper) clearInterval(this.reaper);
    await this.pool?.stop(drainMs);
    // Aborted above: it ends after the statement or index in hand, before the store closes.
    await this.wordBackfill;
    await this.stopWatching?.();
    await this.app.close();
    // Where this process's captures spent their time (wall ms summed per step; the docs bench reads it).
    if (this.screenshots.launches > 0) {
      this.app.log.info({ screenshotStepMs: this.screenshots.stepMs }, 'screenshot step times');
    }
    await this.screenshots.close();
    await this.converter.close();
    await this.schemas.close();
    await this.filling.close();
    await this.fetcher.close();
    await this.store.close();
  }
}
