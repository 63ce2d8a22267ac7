/**
 * Type tests (checked by `tsc`, which type-checks this folder; vitest runs
 * them too, where `expectTypeOf` does nothing at run time).
 */
import type { RunStatus } from '@webdata/contract';
import { type Observable, retry } from 'rxjs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  type ContentValue,
  collectRun,
  createClient,
  type ExpandedResult,
  PAGE_ERROR_CODES,
  type PageErrorCode,
  RUN_ERROR_CODES,
  type RunErrorCode,
  type RunEvent,
  type RunOutcome,
  type RunResult,
} from '../src/index.js';

const client = createClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'wd_type_tests' });
const urls = ['https://example.org/'];

describe('the client types', () => {
  it("types a run status as the known states, open to a foreign server's", async () => {
    const run = await Promise.resolve({} as Awaited<ReturnType<typeof client.runs.get>>);
    expectTypeOf(run.status).toEqualTypeOf<RunStatus | (string & {})>();
    // @ts-expect-error not every string a server sends is a known state
    const known: RunStatus = run.status;
    void known;
    // @ts-expect-error the list filter takes known states only: a typo does not compile
    void client.runs.list({ status: 'complted' });
  });

  it('takes a crawl from urls or from url, exactly one of them', () => {
    // Cold streams: nothing is sent.
    void client.crawl({ urls, limit: 5 });
    void client.crawl({ url: 'https://example.org/', formats: ['markdown'] });
    // @ts-expect-error neither urls nor url: the service would refuse it
    void client.crawl({ limit: 5 });
    // @ts-expect-error both urls and url: the service would refuse it
    void client.crawl({ urls, url: 'https://example.org/' });
  });

  it("types page and run error codes as the contract's codes, open to a foreign server's", () => {
    type Run = Awaited<ReturnType<typeof client.runs.get>>;
    expectTypeOf<NonNullable<ExpandedResult['error']>['code']>().toEqualTypeOf<
      PageErrorCode | (string & {})
    >();
    expectTypeOf<NonNullable<ExpandedResult['screenshot_error']>['code']>().toEqualTypeOf<
      PageErrorCode | (string & {})
    >();
    expectTypeOf<NonNullable<Run['error']>['code']>().toEqualTypeOf<RunErrorCode | (string & {})>();
    expectTypeOf<keyof typeof PAGE_ERROR_CODES>().toEqualTypeOf<PageErrorCode>();
    expectTypeOf<keyof typeof RUN_ERROR_CODES>().toEqualTypeOf<RunErrorCode>();
    // @ts-expect-error a misspelt code does not compile where a known one is asked for
    const mistyped: PageErrorCode = 'time_out';
    void mistyped;
    // The registries are values too, for a caller listing or describing the codes.
    expect(PAGE_ERROR_CODES.timeout).toMatch(/time limit/);
    expect(Object.keys(RUN_ERROR_CODES)).toEqual(['all_items_failed']);
  });

  it('infers collectRun and friends through pipe', () => {
    const run$ = client.crawl({ urls });
    expectTypeOf(collectRun(run$.pipe(retry()))).toEqualTypeOf<
      Promise<RunOutcome<Record<string, unknown>>>
    >();
    const Product = z.object({ name: z.string(), price: z.number() });
    const typed = collectRun(client.extract({ urls, schema: Product }).pipe(retry(2)));
    expectTypeOf(typed).resolves.toEqualTypeOf<RunOutcome<{ name: string; price: number }>>();
    const piped: Observable<RunEvent<{ name: string; price: number }>> = client
      .extract({ urls, schema: Product })
      .pipe(retry());
    void piped;
  });

  it('types data of a schema with z.date() as Date', () => {
    const Article = z.object({ title: z.string(), published: z.date() });
    const outcome = collectRun(client.extract({ urls, query: 'the article', schema: Article }));
    expectTypeOf(outcome)
      .resolves.toHaveProperty('results')
      .items.toEqualTypeOf<RunResult<{ title: string; published: Date }>>();
  });

  it('types content asked for with the results', () => {
    const outcome = collectRun(client.crawl({ urls }, { content: 'markdown' }));
    expectTypeOf(outcome)
      .resolves.toHaveProperty('results')
      .items.toHaveProperty('content')
      .toEqualTypeOf<string | string[] | Record<string, unknown> | null | undefined>();
    const stream = client.runs.results('run_x', { content: 'markdown', unfinished: 'read' });
    expectTypeOf(stream.toArray()).resolves.items.toEqualTypeOf<ExpandedResult>();
    const one = client.runs.content('run_x', 'res_x', { format: 'links' });
    expectTypeOf(one).resolves.toHaveProperty('content').toEqualTypeOf<ContentValue>();
    // @ts-expect-error an unknown content format
    void client.runs.results('run_x', { content: 'pdf' });
    // @ts-expect-error unfinished runs are an error or read on purpose, nothing else
    void client.runs.results('run_x', { unfinished: 'maybe' });
  });
});
