import type { Result, Run } from '../runs/run-types.js';

/** A run snapshot for unit tests, shaped as the server sends it. */
export function makeRun(id: string, overrides: Partial<Run> = {}): Run {
  return {
    id,
    status: 'running',
    type: 'extract',
    urls: ['https://shop.example/p/lamp'],
    created_at: '2024-05-01T10:00:00.000Z',
    updated_at: '2024-05-01T10:00:01.000Z',
    started_at: '2024-05-01T10:00:00.500Z',
    finished_at: null,
    params: {},
    stats: { total: 2, queued: 1, running: 1, succeeded: 0, failed: 0, cancelled: 0 },
    error: null,
    ...overrides,
  };
}

/** A finished snapshot of `run`: every page succeeded. */
export function finished(run: Run, status = 'completed'): Run {
  const total = run.stats?.total ?? 1;
  return {
    ...run,
    status,
    updated_at: '2024-05-01T10:05:00.000Z',
    finished_at: '2024-05-01T10:05:00.000Z',
    stats: { total, queued: 0, running: 0, succeeded: total, failed: 0, cancelled: 0 },
  };
}

/** A result for unit tests. */
export function makeResult(runId: string, id: string, overrides: Partial<Result> = {}): Result {
  return {
    id,
    run_id: runId,
    url: `https://shop.example/${id}`,
    final_url: null,
    status: 'succeeded',
    title: `Page ${id}`,
    depth: 0,
    parent_url: null,
    http_status: 200,
    content_type: 'text/html',
    data: { name: id },
    has_screenshot: false,
    screenshot_error: null,
    error: null,
    created_at: '2024-05-01T10:01:00.000Z',
    ...overrides,
  };
}
