import { describe, expect, it } from 'vitest';
import { finished, makeRun } from '../test-support/runs.js';
import { manyResultsQuestion, progressText, runEndSummary } from './run-summary.js';

const stats = (succeeded: number, failed: number) => ({
  total: succeeded + failed,
  queued: 0,
  running: 0,
  succeeded,
  failed,
  cancelled: 0,
});

describe('runEndSummary', () => {
  it("says why a failed run's page failed, after the run's own error", () => {
    const run = finished(makeRun('run_1'), 'failed');
    run.stats = stats(0, 1);
    run.error = {
      code: 'all_failed',
      message: "no page could be processed; each result's error says why",
    };
    const why = '127.0.0.1:9/ failed: fetch of http://127.0.0.1:9/ failed: ECONNREFUSED (fetch_failed)';
    expect(runEndSummary(run, 'deep crawl of http://127.0.0.1:9/', why)).toBe(
      "Deep crawl of http://127.0.0.1:9/ failed: 0/1 pages succeeded, 1 failed. no page could be processed; each result's error says why. " +
        why,
    );
  });

  it('names the first of several failures as the first', () => {
    const run = finished(makeRun('run_1'), 'incomplete');
    run.stats = stats(2, 3);
    expect(runEndSummary(run, 'crawl of 5 URLs', 'a.example/x failed: HTTP 404 (http_error)')).toBe(
      'Crawl of 5 URLs incomplete: 2/5 pages succeeded, 3 failed. The first: a.example/x failed: HTTP 404 (http_error)',
    );
  });

  it('is the counts alone when nothing failed', () => {
    const run = finished(makeRun('run_1'));
    expect(runEndSummary(run, 'extraction from 2 URLs')).toBe(
      'Extraction from 2 URLs completed: 2/2 pages succeeded.',
    );
    expect(progressText(makeRun('run_2', { stats: undefined }))).toBe('running');
  });
});

describe('manyResultsQuestion', () => {
  it('names the run by what it is, not by its id, and points at Go to Result…', () => {
    const question = manyResultsQuestion(
      {
        type: 'deep-crawl',
        urls: ['https://docs.example/'],
        params: { url: 'https://docs.example/', limit: 300 },
      },
      300,
      10,
    );
    expect(question).toBe(
      'Deep crawl · docs.example got 300 pages. Open the first 10 in tabs, or all of them? (Go to Result… finds one by its title.)',
    );
  });
});
