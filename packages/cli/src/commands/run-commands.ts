import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  type CrawlRequest,
  collectRun,
  type DeepCrawlRequest,
  type ExtractRequest,
  inInputOrder,
  type ResultContentFormat,
  type RunEvent,
  type RunOptions,
} from '@webdata/core';
import { first, firstValueFrom, type Observable, tap } from 'rxjs';
import type { CommandContext } from '../context.js';
import { exitCodeOfRun } from '../exit-codes.js';
import { CliInterrupted } from '../interrupted.js';
import { urlsFrom } from '../io.js';
import { printResults, runSummary } from '../print.js';
import { runProgress } from '../progress.js';
import { CliUsageError } from '../usage-error.js';

/** Options every run-creating command takes. */
export interface RunCommandOptions {
  content?: ResultContentFormat | undefined;
  deadline?: number | undefined;
  detach?: boolean | undefined;
  screenshot?: boolean | undefined;
}

/** Options of the crawling commands. */
export interface CrawlOptions extends RunCommandOptions {
  formats?: string[] | undefined;
  collection?: string | undefined;
  include?: string[] | undefined;
  exclude?: string[] | undefined;
  robots?: boolean | undefined;
  follow?: boolean | undefined;
  limit?: number | undefined;
  maxDepth?: number | undefined;
  sitemap?: boolean | undefined;
  allSites?: boolean | undefined;
}

/**
 * Creates a run and, unless `--detach`, follows it to the end with a progress
 * bar on stderr, then prints its results (with `--content`, each page's
 * content) and exits with a code saying how the run ended.
 */
async function runToEnd(
  context: CommandContext,
  label: string,
  create: (options: RunOptions) => Observable<RunEvent<unknown>>,
  start: () => Promise<{ id: string; status: string }>,
  options: RunCommandOptions,
): Promise<number> {
  const { out } = context;
  if (options.detach) {
    const run = await start();
    out.line(run.id);
    out.document(run);
    out.note(`run ${run.id} ${run.status}; follow it with: webdata runs watch ${run.id}`);
    return 0;
  }
  // Ctrl-C cancels the run this command made; `--deadline` only stops waiting for it (the client's
  // cancelOnUnsubscribe would cancel on both), so the cancel on abort is done here.
  let runId: string | undefined;
  // Our own key: Ctrl-C before the creation answered sends it again to learn which run it made.
  const idempotencyKey = `cli-${randomUUID()}`;
  const events$ = create({
    idempotencyKey,
    content: options.content,
    deadlineMs: options.deadline === undefined ? undefined : options.deadline * 1000,
    includeCancelledResults: true,
    signal: context.signal,
  }).pipe(
    tap((event) => {
      if (event.type === 'created') runId = event.run.id;
    }),
    runProgress(context.io.stderr, { ...context.progress, label }),
  );
  let outcome: Awaited<ReturnType<typeof collectRun<RunEvent<unknown>>>>;
  try {
    outcome = await collectRun(events$);
  } catch (error) {
    // Interrupted before the creation answered: the server may have made the run all the same.
    // The same request with the same Idempotency-Key answers that run (or makes it), to cancel.
    if (context.signal?.aborted && runId === undefined) runId = await madeRun(create, idempotencyKey);
    if (context.signal?.aborted && runId !== undefined) {
      // A run that ended meanwhile answers 409: nothing left to cancel.
      await context.client.runs.cancel(runId).catch(() => undefined);
      throw new CliInterrupted(
        `interrupted: run ${runId} cancelled (what it did so far: webdata results ${runId})`,
      );
    }
    throw error;
  }
  const { run, invalidResults } = outcome;
  const results = inInputOrder(outcome.results, run.urls);
  printResults(out, results, options.content !== undefined);
  out.document({ run, results, invalid_results: invalidResults.map(({ result }) => result) });
  out.note(runSummary(run));
  return exitCodeOfRun(run.status);
}

/** The id of the run a creation with this key made: its replay answers it. Undefined when refused. */
async function madeRun(
  create: (options: RunOptions) => Observable<RunEvent<unknown>>,
  idempotencyKey: string,
): Promise<string | undefined> {
  const created = create({ idempotencyKey }).pipe(first((event) => event.type === 'created'));
  return firstValueFrom(created).then(
    (event) => event.run.id,
    () => undefined,
  );
}

/** Crawl formats to store: the asked ones, plus the one `--content` prints. */
function formatsFor(options: CrawlOptions): CrawlRequest['formats'] {
  const formats = options.formats ? [...options.formats] : undefined;
  if (options.content && options.content !== 'json') {
    if (!formats) return [options.content];
    if (!formats.includes(options.content)) formats.push(options.content);
  }
  return formats as CrawlRequest['formats'];
}

function commonCrawlFields(options: CrawlOptions) {
  return {
    formats: formatsFor(options),
    collection: options.collection,
    include_paths: options.include,
    exclude_paths: options.exclude,
    respect_robots: options.robots,
    screenshot: options.screenshot,
  };
}

/** `webdata crawl URL…`: each URL once, or with `--follow` a site from one start URL. */
export async function crawlCommand(
  context: CommandContext,
  args: string[],
  options: CrawlOptions,
): Promise<number> {
  const urls = await urlsFrom(args, context.io);
  if (urls.length === 0) throw new CliUsageError('no URLs on stdin (one a line)');
  let body: CrawlRequest;
  if (options.follow) {
    if (urls.length !== 1) throw new CliUsageError('crawl --follow takes exactly one start URL');
    body = { url: urls[0]!, limit: options.limit, ...commonCrawlFields(options) } as CrawlRequest;
  } else {
    body = { urls, ...commonCrawlFields(options) } as CrawlRequest;
  }
  context.request = body;
  return runToEnd(
    context,
    'crawl',
    (runOptions) => context.client.crawl(body, runOptions) as Observable<RunEvent<unknown>>,
    () => context.client.runs.start({ type: 'crawl', ...body }),
    options,
  );
}

/** `webdata deep-crawl URL`: a site area breadth-first from one URL. */
export function deepCrawlCommand(
  context: CommandContext,
  url: string,
  options: CrawlOptions,
): Promise<number> {
  const body = {
    url,
    max_depth: options.maxDepth,
    limit: options.limit,
    use_sitemap: options.sitemap,
    same_site: options.allSites ? false : undefined,
    ...commonCrawlFields(options),
  } as DeepCrawlRequest;
  context.request = body;
  return runToEnd(
    context,
    'deep-crawl',
    (runOptions) => context.client.deepCrawl(body, runOptions) as Observable<RunEvent<unknown>>,
    () => context.client.runs.start({ type: 'deep-crawl', ...body }),
    options,
  );
}

/** `webdata extract URL… --query … [--schema file.json]`. */
export async function extractCommand(
  context: CommandContext,
  args: string[],
  options: RunCommandOptions & { query?: string | undefined; schema?: string | undefined },
): Promise<number> {
  let schema: ExtractRequest['schema'];
  if (options.schema) {
    try {
      schema = JSON.parse(readFileSync(options.schema, 'utf8')) as ExtractRequest['schema'];
    } catch (error) {
      throw new CliUsageError(`cannot read the JSON Schema ${options.schema}: ${(error as Error).message}`);
    }
  }
  if (!options.query && !schema) throw new CliUsageError('extract needs --query, --schema or both');
  const urls = await urlsFrom(args, context.io);
  if (urls.length === 0) throw new CliUsageError('no URLs on stdin (one a line)');
  const body = { urls, query: options.query, schema, screenshot: options.screenshot } as ExtractRequest;
  context.request = body;
  return runToEnd(
    context,
    'extract',
    (runOptions) => context.client.extract(body, runOptions) as Observable<RunEvent<unknown>>,
    () => context.client.runs.start({ type: 'extract', ...body }),
    options,
  );
}
