import type { WebDataClient } from '@webdata/core';
import type { Observable } from 'rxjs';
import type { Page, Result, Run, RunFilter } from './run-types.js';

/**
 * The part of the client the Runs view reads through: `client.runs` fits it.
 * Narrow on purpose, so that what the view asks of the service is plain to see.
 */
export interface RunsApi {
  list(
    query: RunFilter & { limit?: number; cursor?: string },
    options?: { signal?: AbortSignal },
  ): Promise<Page<Run>>;
  watchMany(ids: readonly string[]): Observable<Run>;
  resultsPage(
    runId: string,
    query: { cursor?: string | undefined; limit?: number | undefined; status?: 'failed' | undefined },
    options?: { signal?: AbortSignal },
  ): Promise<Page<Result>>;
}

/** `client.runs`, checked against {@link RunsApi}. */
export function runsApiOf(client: WebDataClient): RunsApi {
  return client.runs;
}
