import { describe, expect, it } from 'vitest';
import { finished, makeRun } from '../test-support/runs.js';
import { pagesDone, pendingText, progressCount, progressMessage, progressTitle } from './run-progress.js';

describe('a run in flight', () => {
  const crawling = makeRun('run_1', {
    type: 'deep-crawl',
    urls: [],
    params: { url: 'https://docs.example/' },
    stats: { total: 40, queued: 25, running: 3, succeeded: 11, failed: 1, cancelled: 0 },
  });

  it('counts the pages done, failed ones too, of the pages known; a deep crawl at work may find more', () => {
    expect(pagesDone(crawling)).toBe(12);
    expect(progressCount(crawling)).toBe('12 of ~40');
    expect(progressCount({ ...crawling, type: 'crawl' })).toBe('12 of 40');
    expect(progressCount(finished(crawling))).toBe('40 of 40');
    expect(progressCount({ ...crawling, stats: undefined })).toBeUndefined();
  });

  it('says the pages in progress and queued', () => {
    expect(pendingText(crawling)).toBe('3 pages in progress, 25 queued');
    expect(pendingText({ stats: { running: 1, queued: 0 } })).toBe('1 page in progress');
    expect(pendingText({ stats: { running: 0, queued: 1 } })).toBe('1 page queued');
    expect(pendingText(finished(crawling))).toBeUndefined();
  });
});

describe("a followed run's progress notification", () => {
  it('says what the run is doing and where, as its title', () => {
    expect(progressTitle({ type: 'crawl', urls: ['https://www.example.org/'], params: {} })).toBe(
      'Crawling example.org',
    );
    expect(progressTitle({ type: 'deep-crawl', urls: [], params: { url: 'https://docs.example/3/' } })).toBe(
      'Deep crawling docs.example/3',
    );
    expect(
      progressTitle(
        { type: 'extract', urls: ['https://a.example/x', 'https://a.example/y'], params: {} },
        true,
      ),
    ).toBe('Extracting from a.example/x +1 again');
  });

  it('counts the pages done of the pages known, and the failed ones, as its message', () => {
    const stats = { total: 40, queued: 25, running: 3, succeeded: 11, failed: 1, cancelled: 0 };
    expect(progressMessage({ status: 'running', type: 'deep-crawl', stats })).toBe(
      '12 of ~40 pages, 1 failed',
    );
    expect(progressMessage({ status: 'running', type: 'crawl', stats: { ...stats, failed: 0 } })).toBe(
      '11 of 40 pages',
    );
    expect(progressMessage({ status: 'running', type: 'extract', stats: { total: 1, succeeded: 0 } })).toBe(
      '0 of 1 page',
    );
    expect(progressMessage({ status: 'queued', type: 'crawl', stats: { total: 3, queued: 3 } })).toBe(
      'waiting to start, 3 pages',
    );
    expect(progressMessage({ status: 'queued', type: 'crawl', stats: undefined })).toBe('waiting to start');
  });
});
