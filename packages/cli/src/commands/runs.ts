import { LIMITS } from '@webdata/contract';
import {
  collectRun,
  inInputOrder,
  type ResultContentFormat,
  type RunStatus,
  type RunType,
} from '@webdata/core';
import type { CommandContext } from '../context.js';
import { exitCodeOfRun } from '../exit-codes.js';
import { CliInterrupted } from '../interrupted.js';
import { firstItems } from '../paging.js';
import { printResults, printRun, runSummary } from '../print.js';
import { runProgress } from '../progress.js';

/** Runs `runs ls` lists unless `--limit` says otherwise. */
export const DEFAULT_RUNS_LIMIT = 20;
/** The most `runs ls --limit` takes: pages of the API read one after another. */
export const MAX_RUNS_LIMIT = 10_000;

/**
 * `webdata runs ls`: newest first, one line a run, up to `--limit` runs read
 * page by page; stderr says when there are more than shown.
 */
export async function listRuns(
  context: CommandContext,
  options: { status?: RunStatus | undefined; type?: RunType | undefined; limit?: number | undefined },
): Promise<number> {
  const limit = options.limit ?? DEFAULT_RUNS_LIMIT;
  const { data, next_cursor, more } = await firstItems(
    (cursor, size) =>
      context.client.runs.list(
        { status: options.status, type: options.type, limit: size, cursor },
        { signal: context.signal },
      ),
    limit,
    LIMITS.maxPageSize,
  );
  for (const run of data) {
    const done = `${run.stats?.succeeded ?? 0}/${run.stats?.total ?? 0}`;
    context.out.line(
      [run.id, run.status.padEnd(10), run.type.padEnd(10), done.padStart(7), run.urls[0] ?? ''].join('  '),
    );
  }
  context.out.document({ data, next_cursor });
  if (more) {
    context.out.note(
      `more runs than the ${data.length} shown (newest first): list more with --limit (at most ${MAX_RUNS_LIMIT})`,
    );
  }
  return 0;
}

/** `webdata runs get ID`. */
export async function getRun(context: CommandContext, id: string): Promise<number> {
  const run = await context.client.runs.get(id);
  printRun(context.out, run);
  context.out.document(run);
  return 0;
}

/** `webdata runs cancel ID`. */
export async function cancelRun(context: CommandContext, id: string): Promise<number> {
  const run = await context.client.runs.cancel(id);
  context.out.line(runSummary(run));
  context.out.document(run);
  return 0;
}

/** `webdata runs retry ID [--wait]`: queues what did not succeed again, and with `--wait` follows it. */
export async function retryRun(
  context: CommandContext,
  id: string,
  options: { wait?: boolean | undefined; content?: ResultContentFormat | undefined },
): Promise<number> {
  const queued = await context.client.runs.retry(id);
  if (!options.wait) {
    context.out.line(runSummary(queued));
    context.out.document(queued);
    return 0;
  }
  return followRun(context, id, options, 'retry');
}

/** Follows a run to its end with a progress bar, prints its results, and exits with how it ended. */
async function followRun(
  context: CommandContext,
  id: string,
  options: { content?: ResultContentFormat | undefined; deadline?: number | undefined },
  label: string,
): Promise<number> {
  const outcome = await collectRun(
    context.client.runs
      .follow(id, {
        content: options.content,
        deadlineMs: options.deadline === undefined ? undefined : options.deadline * 1000,
        includeCancelledResults: true,
        signal: context.signal,
      })
      .pipe(runProgress(context.io.stderr, { ...context.progress, label })),
  ).catch((error: unknown) => {
    if (context.signal?.aborted) {
      throw new CliInterrupted(
        `interrupted: stopped watching run ${id}; it goes on (webdata runs watch ${id})`,
      );
    }
    throw error;
  });
  const { run } = outcome;
  const results = inInputOrder(outcome.results, run.urls);
  printResults(context.out, results, options.content !== undefined);
  context.out.document({ run, results });
  context.out.note(runSummary(run));
  return exitCodeOfRun(run.status);
}

/**
 * `webdata runs watch ID`: follows a run started elsewhere (`--detach`, another
 * client) to its end, as `crawl` would have, without cancelling it on Ctrl-C:
 * it is not this command's run.
 */
export function watchRun(
  context: CommandContext,
  id: string,
  options: { content?: ResultContentFormat | undefined; deadline?: number | undefined },
): Promise<number> {
  return followRun(context, id, options, 'watch');
}

/**
 * `webdata runs rm ID`: deletes the run with its results (an active one is
 * cancelled first). A crawl's pages leave its search collection with it
 * (those no other run indexed): stderr says so, as tidying the run list
 * should not empty a search without a word.
 */
export async function removeRun(context: CommandContext, id: string): Promise<number> {
  const run = await context.client.runs.get(id);
  await context.client.runs.delete(id);
  context.out.line(`deleted ${id}`);
  context.out.document({ id, deleted: true });
  const collection = typeof run.params?.collection === 'string' ? run.params.collection : 'default';
  if (run.type !== 'extract' && (run.stats?.succeeded ?? 0) > 0) {
    context.out.note(
      `its pages are no longer found by search in collection "${collection}", unless another run indexed them too`,
    );
  }
  return 0;
}

/**
 * `webdata results RUN_ID`: every result of a finished run (or, with
 * `--unfinished`, what is done so far), the given URLs in the order given.
 */
export async function listResults(
  context: CommandContext,
  runId: string,
  options: {
    content?: ResultContentFormat | undefined;
    status?: 'succeeded' | 'failed' | undefined;
    unfinished?: boolean | undefined;
  },
): Promise<number> {
  // The run's `urls` give the order to print in: the server lists results in the order pages finished.
  const [run, listed] = await Promise.all([
    context.client.runs.get(runId, { signal: context.signal }),
    context.client.runs
      .results(runId, {
        content: options.content,
        status: options.status,
        unfinished: options.unfinished ? 'read' : 'error',
        signal: context.signal,
      })
      .toArray(),
  ]);
  const results = inInputOrder(listed, run.urls);
  printResults(context.out, results, options.content !== undefined);
  context.out.document(results);
  // A crawl stores only the formats it asked for: say why its pages print empty rather than print nothing.
  const without = results.filter(
    (result) => result.status === 'succeeded' && (result.content === null || result.content === undefined),
  ).length;
  if (options.content && without > 0) {
    context.out.note(
      `${without} of ${results.length} pages have no ${options.content} content: the run did not store that format (a crawl stores the --formats it was given, Markdown by default)`,
    );
  }
  return 0;
}
