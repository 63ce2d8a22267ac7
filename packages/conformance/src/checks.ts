import {
  ErrorBody,
  ErrorBodyLenient,
  isTerminalStatus,
  type ResultLenient,
  ResultPageLenient,
  RunLenient,
} from '@webdata/contract';
import { expect } from 'vitest';
import type { z } from 'zod';
import type { ApiCall, ApiResponse } from './http-client.js';
import type { ConformanceTarget } from './target.js';

/**
 * Reads a body with the contract's lenient schema (what any server
 * implementing the specification must satisfy) and, against our own server,
 * also with the strict one (our exact shape).
 */
export function readAs<L extends z.ZodType>(
  target: ConformanceTarget,
  lenient: L,
  strict: z.ZodType,
  body: unknown,
): z.output<L> {
  const read = lenient.safeParse(body);
  expect(read.success, `lenient ${describe(read.error)} in ${preview(body)}`).toBe(true);
  if (target.ownServer) {
    const exact = strict.safeParse(body);
    expect(exact.success, `strict ${describe(exact.error)} in ${preview(body)}`).toBe(true);
  }
  return read.data as z.output<L>;
}

function describe(error: z.ZodError | undefined): string {
  return error ? JSON.stringify(error.issues.slice(0, 5)) : '';
}

/** A short rendering of a body for assertion messages. */
export function preview(body: unknown): string {
  return (typeof body === 'string' ? body : (JSON.stringify(body) ?? String(body))).slice(0, 400);
}

/**
 * Asserts an error answer of api-v1.md: the status, the code, the one error
 * body (`error.code`, `error.message`, `error.request_id`) and the request id
 * echoed in `x-request-id`. Returns the error object.
 */
export function expectError(
  target: ConformanceTarget,
  response: ApiResponse,
  status: number,
  code: string,
): z.output<typeof ErrorBodyLenient>['error'] {
  expect(response.status, preview(response.body)).toBe(status);
  const body = readAs(target, ErrorBodyLenient, ErrorBody, response.body);
  expect(body.error.code).toBe(code);
  expect(typeof body.error.message, 'error.message').toBe('string');
  expect(typeof body.error.request_id, 'error.request_id').toBe('string');
  expect(response.headers['x-request-id'], 'x-request-id echoes error.request_id').toBe(
    body.error.request_id,
  );
  return body.error;
}

/** Creates a run through `path` (any creating endpoint) and asserts the 202 answer; returns the run. */
export async function createRun(
  call: ApiCall,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<z.output<typeof RunLenient>> {
  const response = await call('POST', path, { body, headers });
  expect(response.status, preview(response.body)).toBe(202);
  return RunLenient.parse(response.body);
}

/** Reads a run (lenient). */
export async function getRun(call: ApiCall, runId: string, query = ''): Promise<z.output<typeof RunLenient>> {
  const response = await call('GET', `/api/v1/runs/${runId}${query}`);
  expect(response.status, preview(response.body)).toBe(200);
  return RunLenient.parse(response.body);
}

/**
 * Polls a run until `done` says so (by default: until it is terminal), with
 * `?wait=` long polls; a server that ignores `wait` is polled every 200 ms.
 */
export async function pollRun(
  call: ApiCall,
  runId: string,
  done: (run: z.output<typeof RunLenient>) => boolean = (run) => isTerminalStatus(run.status),
  timeoutMs = 20_000,
): Promise<z.output<typeof RunLenient>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const started = Date.now();
    const run = await getRun(call, runId, '?wait=2');
    if (done(run)) return run;
    if (Date.now() > deadline) throw new Error(`run ${runId} still ${run.status}: ${preview(run.stats)}`);
    if (Date.now() - started < 100) await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Every result of a run (follows cursors). */
export async function listResults(call: ApiCall, runId: string, query = ''): Promise<ResultLenient[]> {
  const all: ResultLenient[] = [];
  let cursor: string | null | undefined;
  do {
    const params = new URLSearchParams(query);
    params.set('limit', '200');
    if (cursor) params.set('cursor', cursor);
    const response = await call('GET', `/api/v1/runs/${runId}/results?${params}`);
    expect(response.status, preview(response.body)).toBe(200);
    const page = ResultPageLenient.parse(response.body);
    all.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor);
  return all;
}

/** Waits `ms` milliseconds. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
