import type { CreateRunParams, Run, RunStatus } from '@webdata/contract';
import type { ServerConfig } from '../config.js';
import { MAX_GLOB_SEARCH_SIZE, normalizeUrl, pathGlobsSearchSize } from '../crawl/url/index.js';
import { conflict, notFound, PageError, ServiceError } from '../errors.js';
import type { SchemaValidator } from '../extract/index.js';
import { checkHopUrl } from '../fetch/ssrf-guard.js';
import { ActiveRunLimitError, type Store, type StoredRun } from '../store/store.js';
import type { RunEvents } from './run-events.js';
import { isSameRunRequest, splitRunRequest } from './run-params.js';
import { CANCELLABLE, RETRYABLE } from './run-state.js';
import type { WorkerPool } from './worker-pool.js';

/**
 * The run lifecycle as the API sees it: create, cancel, retry, delete. Checks
 * what the contract cannot (configured ceilings, fetchable URLs, a schema that
 * compiles), writes through the store and tells the workers and long polls.
 */
export class RunService {
  constructor(
    private readonly store: Store,
    private readonly events: RunEvents,
    private readonly config: ServerConfig,
    private readonly pool: WorkerPool | null,
    private readonly schemas: SchemaValidator,
  ) {}

  async create(
    owner: string,
    request: CreateRunParams,
    idempotencyKey?: string | undefined,
  ): Promise<{ run: StoredRun; created: boolean }> {
    const { urls, run } = splitRunRequest(request);
    if (run.type === 'deep-crawl' && run.params.limit > this.config.deepCrawlCeiling) {
      throw new ServiceError(
        'invalid_request',
        `limit is above this server's ceiling of ${this.config.deepCrawlCeiling}`,
        {
          details: [{ path: ['limit'], code: 'too_big', message: `at most ${this.config.deepCrawlCeiling}` }],
        },
      );
    }
    // Literal private addresses are refused up front; names are checked again at connect time.
    urls.forEach((url, index) => {
      try {
        checkHopUrl(url, this.config.allowPrivateNetworks);
      } catch (error) {
        if (!(error instanceof PageError)) throw error;
        throw new ServiceError('unprocessable_url', error.message, {
          details: [
            { path: 'urls' in request ? ['urls', index] : ['url'], code: error.code, message: error.message },
          ],
        });
      }
    });
    if (run.type !== 'extract') {
      const include = run.params.include_paths ?? [];
      const exclude = run.params.exclude_paths ?? [];
      const size = pathGlobsSearchSize(include) + pathGlobsSearchSize(exclude);
      if (size > MAX_GLOB_SEARCH_SIZE) {
        const message = `include_paths and exclude_paths together are too intricate: ${size} glob steps past their plain starts, at most ${MAX_GLOB_SEARCH_SIZE} (about one a character, two a * or brace)`;
        throw new ServiceError('invalid_request', message, {
          details: (['include_paths', 'exclude_paths'] as const)
            .filter((field) => (run.params[field]?.length ?? 0) > 0)
            .map((field) => ({ path: [field], code: 'too_big', message })),
        });
      }
    }
    // Compiling is the costly check, so it comes last, and on the schema thread.
    if (run.type === 'extract' && run.params.schema !== undefined) {
      const problem = await this.schemas.checkSchema(owner, run.params.schema);
      if (problem !== null) {
        throw new ServiceError('invalid_request', `schema is not a valid JSON Schema: ${problem.message}`, {
          details: [{ path: ['schema', ...problem.path], code: 'invalid_schema', message: problem.message }],
        });
      }
    }
    const result = await this.store
      .createRun({
        owner,
        ...run,
        urls,
        items: urls.map((url) => ({ url, key: normalizeUrl(url), depth: 0 })),
        idempotencyKey,
        maxActiveRuns: this.config.maxActiveRunsPerOwner,
      })
      .catch(activeRunLimitRefusal);
    if (result.created) this.pool?.poke();
    else if (!isSameRunRequest(result.run.run, urls, run)) throw idempotencyKeyReused(result.run.run);
    return result;
  }

  async cancel(owner: string, runId: string): Promise<Run> {
    const cancelled = await this.store.cancelRun(owner, runId);
    if (!cancelled) throw await this.refusal(owner, runId, 'cancel', CANCELLABLE);
    this.pool?.abortRun(runId);
    this.events.notify(runId);
    return cancelled.run;
  }

  async retry(owner: string, runId: string): Promise<Run> {
    const retried = await this.store
      .retryRun(owner, runId, this.config.maxActiveRunsPerOwner)
      .catch(activeRunLimitRefusal);
    if (!retried) throw await this.refusal(owner, runId, 'retry', RETRYABLE);
    this.pool?.poke();
    this.events.notify(runId);
    return retried.run;
  }

  async delete(owner: string, runId: string): Promise<void> {
    // An active run is cancelled first so no worker writes into a deleted run.
    await this.store.cancelRun(owner, runId);
    this.pool?.abortRun(runId);
    if (!(await this.store.deleteRun(owner, runId))) throw notFound('run');
    this.events.notify(runId);
  }

  private async refusal(
    owner: string,
    runId: string,
    action: string,
    allowed: readonly RunStatus[],
  ): Promise<ServiceError> {
    const stored = await this.store.getRun(owner, runId);
    if (!stored) return notFound('run');
    return conflict(
      `cannot ${action} a run that is ${stored.run.status}; only runs that are ${sayEither(allowed)} can be`,
    );
  }
}

/** Seconds a client refused for its active runs is told to wait: runs take seconds to minutes. */
const ACTIVE_RUNS_RETRY_AFTER_SECONDS = 5;

/** The store's {@link ActiveRunLimitError} as the API's 429; any other error as it is. */
function activeRunLimitRefusal(error: unknown): never {
  if (!(error instanceof ActiveRunLimitError)) throw error;
  throw new ServiceError(
    'rate_limited',
    `this key already has ${error.limit} runs queued or running; create more once some have ended (or cancel some)`,
    { retryAfterSeconds: ACTIVE_RUNS_RETRY_AFTER_SECONDS, cause: error },
  );
}

/**
 * A key replayed with another request: answering its first run would hand the
 * client a run it did not ask for (a crawl for an extraction, other URLs), so
 * the request is refused, as Stripe and the IETF's Idempotency-Key draft do.
 */
function idempotencyKeyReused(first: Run): ServiceError {
  const message = `this Idempotency-Key was already used for another request (${first.type} run ${first.id}); send a new key with a new request, and the same key only to repeat the same request`;
  return new ServiceError('invalid_request', message, {
    details: [{ path: ['Idempotency-Key'], code: 'idempotency_key_reused', message }],
  });
}

/** `a, b or c`. */
function sayEither(states: readonly string[]): string {
  return states.length < 2 ? states.join('') : `${states.slice(0, -1).join(', ')} or ${states.at(-1)}`;
}
