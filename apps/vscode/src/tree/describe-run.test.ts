import { describe, expect, it } from 'vitest';
import { makeResult } from '../test-support/runs.js';
import { resultFailure } from './describe-run.js';

describe('resultFailure', () => {
  it("says which page failed, the service's message and its code", () => {
    const failed = makeResult('run_1', 'res_1', {
      status: 'failed',
      url: 'http://127.0.0.1:8000/nope.html',
      http_status: 404,
      error: { code: 'http_error', message: 'HTTP 404 from http://127.0.0.1:8000/nope.html' },
    });
    expect(resultFailure(failed)).toBe(
      '127.0.0.1:8000/nope.html failed: HTTP 404 from http://127.0.0.1:8000/nope.html (http_error)',
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
