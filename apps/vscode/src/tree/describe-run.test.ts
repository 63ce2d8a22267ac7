import { describe, expect, it } from 'vitest';
import { finished, makeResult, makeRun } from '../test-support/runs.js';
import {
  resultFailure,
  resultLabel,
  runAsked,
  runDescription,
  runRowLabel,
  runTooltip,
  sharedTitleParts,
} from './describe-run.js';

describe('resultFailure', () => {
  it("says which page failed, the service's message and its code", () => {
    const failed = makeResult('run_1', 'res_1', {
      status: 'failed',
      url: 'http://127.0.0.1:8000/nope.html',
      http_status: 404,
      error: { code: 'http_error', message: 'HTTP 404 from http://127.0.0.1:8000/nope.html' },
    });
    expect(resultFailure(failed)).toBe('127.0.0.1:8000/nope.html failed: HTTP 404 (http_error)');
  });

  it('names the page once, but keeps another URL the message names (where a redirect led)', () => {
    const redirected = makeResult('run_1', 'res_2', {
      status: 'failed',
      url: 'http://127.0.0.1:8000/old',
      error: { code: 'http_error', message: 'HTTP 404 from http://127.0.0.1:8000/new' },
    });
    expect(resultFailure(redirected)).toBe(
      '127.0.0.1:8000/old failed: HTTP 404 from http://127.0.0.1:8000/new (http_error)',
    );
  });

  it('makes do with a code alone, or with nothing but the HTTP status', () => {
    const base = { status: 'failed', url: 'https://a.example/x' };
    expect(resultFailure(makeResult('r', 'res', { ...base, error: { code: 'fetch_failed' } }))).toBe(
      'a.example/x failed: fetch_failed',
    );
    expect(resultFailure(makeResult('r', 'res', { ...base, error: null, http_status: 500 }))).toBe(
      'a.example/x failed (HTTP 500); the service gave no reason',
    );
  });
});

describe('runTooltip', () => {
  it('says what the run was asked and how long it took', () => {
    const run = finished(
      makeRun('run_1', {
        params: {
          query: 'the page title and its first heading',
          schema: { type: 'object', properties: { title: { type: 'string' }, heading: { type: 'string' } } },
          screenshot: false,
        },
      }),
      'incomplete',
    );
    const lines = runTooltip(run, Date.parse('2024-05-01T10:06:00.000Z')).split('\n');
    expect(lines.slice(0, 5)).toEqual([
      'Extract · shop.example/p/lamp · incomplete',
      'run_1',
      'asked: "the page title and its first heading", fields title, heading',
      'created 6 min ago (2024-05-01T10:00:00.000Z)',
      // Started at 10:00:00.5, finished at 10:05.
      'finished 2024-05-01T10:05:00.000Z, took 5 min 0 s',
    ]);
  });
});

describe('runAsked', () => {
  it("names a deep crawl's depth, page limit, formats, screenshots and collection", () => {
    expect(
      runAsked({
        url: 'http://127.0.0.1:8000/',
        max_depth: 1,
        limit: 30,
        formats: ['markdown'],
        screenshot: true,
        collection: 'default',
        same_site: true,
      }),
    ).toBe('depth 1, at most 30 pages, as markdown, screenshots, into collection default');
    expect(runAsked({})).toBe('');
    expect(runAsked(null)).toBe('');
  });

  it('says one page in the singular', () => {
    expect(runAsked({ max_depth: 0, limit: 1 })).toBe('depth 0, at most 1 page');
  });
});

describe('a run row', () => {
  // At the default sidebar width (about 300 px) a run's row shows some 30 characters of label and
  // description together: what tells runs of one host apart (kind, path, time) comes first.
  it('is named by what the run is and where on its site it went, then how long ago once ended', () => {
    const run = finished(
      makeRun('run_1', {
        type: 'deep-crawl',
        urls: [],
        params: { url: 'http://127.0.0.1:8765/library/index.html', max_depth: 2, limit: 300 },
        stats: { total: 300, queued: 0, running: 0, succeeded: 300, failed: 0, cancelled: 0 },
      }),
    );
    const label = runRowLabel(run);
    const description = runDescription(run, Date.parse('2024-05-01T10:00:05.000Z'));
    expect(label).toBe('Deep crawl /library/index.html');
    expect(description).toBe('just now · 300/300 · 127.0.0.1:8765');
    // Another deep crawl of the same host differs within the label.
    const other = { ...run, params: { url: 'http://127.0.0.1:8765/tutorial/index.html' } };
    expect(runRowLabel(other)).toBe('Deep crawl /tutorial/index.html');
    // Where it went is whole in the tooltip's first line.
    expect(runTooltip(run, Date.now()).split('\n')[0]).toBe(
      'Deep crawl · 127.0.0.1:8765/library/index.html · completed',
    );
  });

  it('says how far a run in flight is first: pages done of pages known', () => {
    const run = makeRun('run_2', {
      type: 'crawl',
      urls: ['https://www.docs.example/', 'https://docs.example/b'],
      stats: { total: 2, queued: 0, running: 1, succeeded: 0, failed: 1, cancelled: 0 },
    });
    // Started at the site's root: the host is the place, said once.
    expect(runRowLabel(run)).toBe('Crawl docs.example +1');
    expect(runDescription(run, Date.parse('2024-05-01T10:03:00.000Z'))).toBe('1 of 2 · 3 min ago');
    const deep = makeRun('run_3', {
      type: 'deep-crawl',
      urls: [],
      params: { url: 'https://docs.example/guide/' },
      stats: { total: 40, queued: 25, running: 3, succeeded: 11, failed: 1, cancelled: 0 },
    });
    expect(runRowLabel(deep)).toBe('Deep crawl /guide');
    expect(runDescription(deep, Date.parse('2024-05-01T10:03:00.000Z'))).toBe(
      '12 of ~40 · 3 min ago · docs.example',
    );
  });

  it('keeps the last segments of a long path', () => {
    const run = makeRun('run_4', {
      type: 'crawl',
      urls: ['https://docs.python.org/3/library/functions.html'],
    });
    expect(runRowLabel(run)).toBe('Crawl …/library/functions.html');
    const long = makeRun('run_5', {
      type: 'extract',
      urls: ['https://shop.example/p/a-very-long-product-name-that-goes-on.html?colour=red'],
    });
    expect(runRowLabel(long)).toBe('Extract …/a-very-long-product-n…');
  });
});

describe("a result row's label", () => {
  it("leaves out the site's name that the titles of a run's pages share, at a separator", () => {
    expect(sharedTitleParts(['Brass Desk Lamp | Acme Shop', 'Enamel Kettle | Acme Shop'])).toEqual({
      prefix: undefined,
      suffix: ' | Acme Shop',
    });
    expect(sharedTitleParts(['Acme Shop — Lamp', 'Acme Shop — Kettle', null])).toEqual({
      prefix: 'Acme Shop — ',
      suffix: undefined,
    });
    const python = sharedTitleParts([
      '3. An Informal Introduction to Python — Python 3.12 documentation',
      '4. More Control Flow Tools — Python 3.12 documentation',
    ]);
    const row = (title: string) => resultLabel(makeResult('run_1', 'res_1', { title }), python);
    expect(row('3. An Informal Introduction to Python — Python 3.12 documentation')).toBe(
      '3. An Informal Introduction to Python',
    );
    // A title that is only the shared part stays whole.
    expect(row('Python 3.12 documentation')).toBe('Python 3.12 documentation');
  });

  it('shares nothing of one title, of titles without a common part, or within a word', () => {
    expect(sharedTitleParts(['Brass Desk Lamp | Acme Shop'])).toEqual({});
    expect(sharedTitleParts(['Lamp | Acme', 'Kettle | Other'])).toEqual({
      prefix: undefined,
      suffix: undefined,
    });
    expect(sharedTitleParts(['Well-made lamp', 'Well-made kettle'])).toEqual({
      prefix: undefined,
      suffix: undefined,
    });
    expect(resultLabel(makeResult('run_1', 'res_1', { title: 'Lamp | Acme' }))).toBe('Lamp | Acme');
  });
});
