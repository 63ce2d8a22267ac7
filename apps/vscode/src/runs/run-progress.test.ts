import { describe, expect, it } from 'vitest';
import { finished, makeRun } from '../test-support/runs.js';
import { pagesDone, pendingText, progressCount } from './run-progress.js';

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
