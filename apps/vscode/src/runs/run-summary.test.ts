import { describe, expect, it } from 'vitest';
import { finished, makeRun } from '../test-support/runs.js';
import { deleteQuestion, manyResultsQuestion, progressText, runEndSummary } from './run-summary.js';

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
      "Deep crawl of http://127.0.0.1:9/ failed: 0/1 pages succeeded, 1 failed. No page could be processed; each result's error says why. " +
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

describe('deleteQuestion', () => {
  // Seen in code-server: 'Delete run run_01m8e44yy4xxre3kb72d2w4602 and its 528 pages of results?'
  // beside two rows reading 'Deep crawl': the id told nobody which run it was.
  it('names the run by what it is and where it went, its id and age in the detail', () => {
    const run = finished(
      makeRun('run_01m8e44yy4', {
        type: 'deep-crawl',
        urls: [],
        params: { url: 'http://127.0.0.1:8765/index.html', max_depth: 4 },
      }),
      'incomplete',
    );
    run.stats = stats(526, 2);
    expect(deleteQuestion(run.id, run, Date.parse('2024-05-01T10:01:30.000Z'))).toEqual({
      message: 'Delete Deep crawl · 127.0.0.1:8765/index.html and its results (528 pages)?',
      detail: 'Run run_01m8e44yy4, created 1 min ago. This cannot be undone.',
    });
  });

  // Seen in code-server (vsx5's tour): 'and its 1 page of results?' read as one page of a paged list.
  it('counts the pages whose results go, not pages of a list', () => {
    const run = finished(
      makeRun('run_1', { type: 'extract', urls: ['https://shop.example/lamp'] }),
      'completed',
    );
    run.stats = stats(1, 0);
    expect(deleteQuestion(run.id, run, Date.parse('2024-05-01T10:01:30.000Z')).message).toBe(
      'Delete Extract · shop.example/lamp and its results (1 page)?',
    );
  });

  it('falls back to the id for a run not listed', () => {
    expect(deleteQuestion('run_9', undefined, 0).message).toBe('Delete run run_9?');
  });
});
