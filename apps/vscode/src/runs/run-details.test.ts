import { describe, expect, it } from 'vitest';
import { finished, makeRun } from '../test-support/runs.js';
import { runDetails, runDetailsTitle } from './run-details.js';

describe('runDetails', () => {
  it('says what the run was asked, its request as JSON, its timings and pages', () => {
    const run = finished(
      makeRun('run_1', {
        urls: ['https://shop.example/p/lamp'],
        params: { query: 'the price', screenshot: false },
      }),
    );
    const text = runDetails(run);
    expect(text.split('\n')[0]).toBe('# Extract · completed');
    expect(text).toContain('Run `run_1`');
    expect(text).toContain('"the price"');
    const json = /```json\n([\s\S]*?)\n```/.exec(text)?.[1];
    expect(JSON.parse(json ?? 'null')).toEqual({
      type: 'extract',
      urls: ['https://shop.example/p/lamp'],
      query: 'the price',
      screenshot: false,
    });
    expect(text).toContain('| created | 2024-05-01T10:00:00.000Z | |');
    expect(text).toContain('| started | 2024-05-01T10:00:00.500Z | queued 500 ms |');
    expect(text).toContain('| finished | 2024-05-01T10:05:00.000Z | took 5 min 0 s |');
    expect(text).toContain('2 in all: 2 succeeded');
  });

  it("gives the run's error, and its URLs when it keeps no request", () => {
    const run = finished(makeRun('run_2', { params: undefined }), 'failed');
    run.error = { code: 'all_items_failed', message: 'no page could be processed' };
    const text = runDetails(run);
    expect(text).toContain('- https://shop.example/p/lamp');
    expect(text).not.toContain('```json');
    expect(text).toContain('## Error\n\nno page could be processed (`all_items_failed`)');
  });
});

describe('runDetailsTitle', () => {
  it('names a run by its kind, its site and the pages it was asked for, not by its id', () => {
    const docs = (path: string) => `https://docs.python.org/3/${path}`;
    expect(
      runDetailsTitle({ type: 'crawl', urls: [docs('a.html'), docs('b.html'), docs('c.html')], params: {} }),
    ).toBe('Crawl · docs.python.org (3 pages)');
    expect(runDetailsTitle({ type: 'extract', urls: ['https://www.shop.example/p/lamp'], params: {} })).toBe(
      'Extract · shop.example (1 page)',
    );
    expect(
      runDetailsTitle({
        type: 'deep-crawl',
        urls: [docs('')],
        params: { url: docs(''), max_depth: 2, limit: 50 },
      }),
    ).toBe('Deep crawl · docs.python.org (at most 50 pages)');
    expect(runDetailsTitle({ type: 'crawl', urls: [docs('')], params: { url: docs(''), limit: 1 } })).toBe(
      'Crawl · docs.python.org (at most 1 page)',
    );
    expect(
      runDetailsTitle({
        type: 'crawl',
        urls: ['http://127.0.0.1:8000/a', 'https://b.example/', 'https://c.example/'],
        params: undefined,
      }),
    ).toBe('Crawl · 127.0.0.1:8000 +2 sites (3 pages)');
    expect(runDetailsTitle({ type: 'screenshot', urls: [], params: undefined })).toBe('screenshot');
  });
});
