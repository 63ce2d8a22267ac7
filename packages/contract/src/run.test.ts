import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  CreateRunRequest,
  GetRunQuery,
  isTerminalStatus,
  ListRunsQuery,
  Run,
  RunLenient,
  RunPage,
  type RunStatus,
  type RunType,
} from './run.js';
import { expectIssueAt } from './test-helpers.js';

export const exampleRun = {
  id: 'run_01HZX3',
  status: 'running',
  type: 'deep-crawl',
  urls: ['https://example.org/'],
  created_at: '2026-11-22T10:15:30.123Z',
  updated_at: '2026-11-22T10:15:31.000Z',
  started_at: '2026-11-22T10:15:30.500Z',
  finished_at: null,
  params: { max_depth: 3, limit: 100 },
  stats: { total: 40, queued: 10, running: 4, succeeded: 25, failed: 1, cancelled: 0 },
  error: null,
};

describe('Run (strict)', () => {
  it('accepts the run our server sends, in every status', () => {
    for (const status of ['queued', 'running', 'completed', 'incomplete', 'failed', 'cancelled']) {
      expect(Run.safeParse({ ...exampleRun, status }).success).toBe(true);
    }
    expect(RunPage.safeParse({ data: [exampleRun], next_cursor: null }).success).toBe(true);
  });

  it('rejects an unknown status, an unknown type, extra fields and bad timestamps', () => {
    expectIssueAt(Run, { ...exampleRun, status: 'paused' }, ['status']);
    expectIssueAt(Run, { ...exampleRun, type: 'scrape' }, ['type']);
    expectIssueAt(Run, { ...exampleRun, created_at: 'yesterday' }, ['created_at']);
    expectIssueAt(Run, { ...exampleRun, stats: { ...exampleRun.stats, total: -1 } }, ['stats', 'total']);
    expect(Run.safeParse({ ...exampleRun, extra: 1 }).success).toBe(false);
  });
});

describe('RunLenient', () => {
  it('accepts a run with an unknown status and extra fields, keeping them', () => {
    const foreign = { ...exampleRun, status: 'warming-up', region: 'eu', stats: { total: 3, pending: 3 } };
    const parsed = RunLenient.parse(foreign);
    expect(parsed.status).toBe('warming-up');
    expect(parsed.region).toBe('eu');
    expect(parsed.stats?.pending).toBe(3);
    expect(isTerminalStatus(parsed.status)).toBe(false);
  });

  it('accepts a run with only the five fields the specification shows', () => {
    const { id, status, type, urls, created_at } = exampleRun;
    expect(RunLenient.safeParse({ id, status, type, urls, created_at }).success).toBe(true);
  });

  it('still requires the five shown fields', () => {
    const { id: _id, ...withoutId } = exampleRun;
    expectIssueAt(RunLenient, withoutId, ['id']);
  });
});

describe('CreateRunRequest', () => {
  it('dispatches on type', () => {
    expect(CreateRunRequest.parse({ type: 'crawl', urls: ['https://a.example/'] }).type).toBe('crawl');
    expect(CreateRunRequest.parse({ type: 'deep-crawl', url: 'https://a.example/' }).type).toBe('deep-crawl');
    expect(CreateRunRequest.parse({ type: 'extract', urls: ['https://a.example/'], query: 'q' }).type).toBe(
      'extract',
    );
  });

  it('rejects an unknown run type at path type', () => {
    expectIssueAt(CreateRunRequest, { type: 'scrape', urls: ['https://a.example/'] }, ['type']);
    expectIssueAt(CreateRunRequest, { urls: ['https://a.example/'] }, ['type']);
  });

  it("validates the chosen type's body", () => {
    expectIssueAt(CreateRunRequest, { type: 'extract', urls: ['ftp://a.example/'], query: 'q' }, ['urls', 0]);
    expectIssueAt(CreateRunRequest, { type: 'deep-crawl' }, ['url']);
  });
});

describe('run queries', () => {
  it('reads ids as a comma-separated list with a cap', () => {
    expect(ListRunsQuery.parse({ ids: 'run_a,run_b' }).ids).toEqual(['run_a', 'run_b']);
    const many = Array.from({ length: 101 }, (_, i) => `run_${i}`).join(',');
    expectIssueAt(ListRunsQuery, { ids: many }, ['ids']);
  });

  it('coerces limit and wait from strings and bounds them', () => {
    expect(ListRunsQuery.parse({ limit: '20' }).limit).toBe(20);
    expect(ListRunsQuery.parse({}).limit).toBe(50);
    expectIssueAt(ListRunsQuery, { limit: '500' }, ['limit']);
    expectIssueAt(ListRunsQuery, { limit: 'ten' }, ['limit']);
    expectIssueAt(ListRunsQuery, { status: 'paused' }, ['status']);
    expect(GetRunQuery.parse({ wait: '5' }).wait).toBe(5);
    expectIssueAt(GetRunQuery, { wait: '31' }, ['wait']);
    expect(ListRunsQuery.parse({ ids: 'run_a', wait: '20' }).wait).toBe(20);
    expectIssueAt(ListRunsQuery, { wait: '31' }, ['wait']);
    expectIssueAt(ListRunsQuery, { wait: '-1' }, ['wait']);
  });

  it('reads a foreign status leniently, typed with the known ones', () => {
    const run = RunLenient.parse({
      id: 'r',
      status: 'warming-up',
      type: 'scrape',
      urls: [],
      created_at: 'x',
    });
    expect(run.status).toBe('warming-up');
    expectTypeOf(run.status).toEqualTypeOf<RunStatus | (string & {})>();
    expectTypeOf(run.type).toEqualTypeOf<RunType | (string & {})>();
    // @ts-expect-error a lenient status is not a known one until checked
    const known: RunStatus = run.status;
    expect(known).toBe('warming-up');
  });
});
