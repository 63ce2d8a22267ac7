import { describe, expect, expectTypeOf, it } from 'vitest';
import { type CreateRunParams, CreateRunRequest, RunType } from './run.js';
import { RUN_PARAMS, type RunParams, type TypedRunParams } from './run-params.js';

/** What a server stores of a request: everything but `type` and `urls`. */
function stored(request: CreateRunParams): Record<string, unknown> {
  const { type: _type, ...body } = request;
  const { urls: _urls, ...params } = body as typeof body & { urls?: unknown };
  return JSON.parse(JSON.stringify(params));
}

describe('RUN_PARAMS', () => {
  it('has one schema per run type', () => {
    expect(Object.keys(RUN_PARAMS).sort()).toEqual([...RunType.options].sort());
  });

  it.each([
    { type: 'extract', urls: ['https://a.example/'], query: ' name ' },
    {
      type: 'extract',
      urls: ['https://a.example/'],
      schema: { type: 'object', properties: { n: { type: 'string' } } },
      screenshot: true,
    },
    { type: 'crawl', urls: ['https://a.example/', 'https://b.example/'] },
    {
      type: 'crawl',
      url: 'https://a.example/',
      limit: 5,
      formats: ['html', 'links'],
      include_paths: ['/d/**'],
    },
    { type: 'deep-crawl', url: 'https://a.example/', max_depth: 0, use_sitemap: false, same_site: false },
  ])('reads back what a server stores of a $type request, unchanged', (body) => {
    const request = CreateRunRequest.parse(body);
    const params = stored(request);
    expect(RUN_PARAMS[request.type].parse(params)).toEqual(params);
  });

  it('applies the request defaults', () => {
    expect(RUN_PARAMS['deep-crawl'].parse({ url: 'https://a.example/' })).toEqual({
      url: 'https://a.example/',
      max_depth: 3,
      limit: 100,
      use_sitemap: true,
      same_site: true,
      formats: ['markdown'],
      screenshot: false,
      collection: 'default',
      respect_robots: true,
    });
    expect(RUN_PARAMS.crawl.parse({}).limit).toBe(10);
    expect(RUN_PARAMS.extract.parse({ query: 'q' }).screenshot).toBe(false);
  });

  it('refuses what no request of that type holds', () => {
    expect(RUN_PARAMS.crawl.safeParse({ urls: ['https://a.example/'] }).success).toBe(false);
    expect(RUN_PARAMS.extract.safeParse({ query: 'q', max_depth: 2 }).success).toBe(false);
    expect(RUN_PARAMS['deep-crawl'].safeParse({}).success).toBe(false);
  });

  it('narrows params by type', () => {
    expectTypeOf<Extract<TypedRunParams, { type: 'deep-crawl' }>['params']>().toEqualTypeOf<
      RunParams<'deep-crawl'>
    >();
    expectTypeOf<RunParams<'deep-crawl'>['max_depth']>().toEqualTypeOf<number>();
    expectTypeOf<RunParams<'crawl'>['url']>().toEqualTypeOf<string | undefined>();
  });
});
