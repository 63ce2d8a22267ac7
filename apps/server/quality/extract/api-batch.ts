import type { ExtractionSchema, Result } from '@webdata/contract';
import { type ApiCall, waitForRun } from '../../test/api-client.js';

/** A batch's results by the URL asked for, and its wall time from the request to the run's end. */
export interface BatchOutcome {
  seconds: number;
  runStatus: string;
  results: Map<string, Result>;
}

/**
 * Extracts `urls` in one `POST /api/v1/extract` run (≤ 100 URLs, the API's
 * limit) and waits for it to end. The time runs from sending the request to
 * seeing the run terminal; reading the results back is not counted.
 */
export async function extractBatch(
  call: ApiCall,
  urls: string[],
  schema: ExtractionSchema,
  query: string,
): Promise<BatchOutcome> {
  return runBatch(call, '/api/v1/extract', { urls, schema, query });
}

/**
 * Crawls `urls` in one `POST /api/v1/crawl` run: the pipeline of an
 * extraction (fetch, convert, store) without the extraction, plus indexing
 * for search; for scale.
 */
export async function crawlBatch(call: ApiCall, urls: string[]): Promise<BatchOutcome> {
  return runBatch(call, '/api/v1/crawl', { urls, formats: ['markdown', 'html', 'text', 'links'] });
}

async function runBatch(call: ApiCall, path: string, body: Record<string, unknown>): Promise<BatchOutcome> {
  const started = performance.now();
  const created = await call('POST', path, body);
  if (created.status !== 202) throw new Error(`run not created: ${JSON.stringify(created.body)}`);
  const run = await waitForRun(call, created.body.id, 600_000);
  const seconds = (performance.now() - started) / 1000;
  const results = new Map<string, Result>();
  let cursor: string | null = null;
  do {
    const after: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const page = await call('GET', `/api/v1/runs/${run.id}/results?limit=200${after}`);
    for (const result of page.body.data as Result[]) results.set(result.url, result);
    cursor = page.body.next_cursor ?? null;
  } while (cursor);
  return { seconds, runStatus: run.status, results };
}
