import { describe, expect, it } from 'vitest';
import { makeRun } from '../test-support/runs.js';
import { requestOfRun } from './run-request.js';

describe('requestOfRun', () => {
  it("rebuilds an extraction's request from its URLs and params", () => {
    const schema = { type: 'object', properties: { name: { type: 'string' } } };
    const run = makeRun('run_1', {
      urls: ['https://a.example/1', 'https://a.example/2'],
      params: { query: 'the name', schema, screenshot: false },
    });
    expect(requestOfRun(run)).toEqual({
      type: 'extract',
      urls: ['https://a.example/1', 'https://a.example/2'],
      query: 'the name',
      schema,
      screenshot: false,
    });
  });

  it('gives a crawl from a start page and a deep crawl their url, not urls (the service refuses both)', () => {
    const deep = makeRun('run_2', {
      type: 'deep-crawl',
      urls: ['https://a.example/'],
      params: { url: 'https://a.example/', max_depth: 2, limit: 30 },
    });
    expect(requestOfRun(deep)).toEqual({
      type: 'deep-crawl',
      url: 'https://a.example/',
      max_depth: 2,
      limit: 30,
    });
    const crawl = makeRun('run_3', { type: 'crawl', urls: ['https://a.example/x'], params: { limit: 1 } });
    expect(requestOfRun(crawl)).toEqual({ type: 'crawl', urls: ['https://a.example/x'], limit: 1 });
  });

  it('gives nothing for a run without params or of an unknown type', () => {
    expect(requestOfRun(makeRun('run_4', { params: undefined }))).toBeUndefined();
    expect(requestOfRun(makeRun('run_5', { type: 'sitemap' }))).toBeUndefined();
  });
});
