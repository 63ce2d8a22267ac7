import { describe, expect, it } from 'vitest';
import { ERROR_STATUS, ErrorBody, ErrorBodyLenient } from './errors.js';
import { expectIssueAt } from './test-helpers.js';

describe('ErrorBody', () => {
  it('accepts every code of api-v1.md with details', () => {
    for (const code of Object.keys(ERROR_STATUS)) {
      const body = {
        error: {
          code,
          message: 'm',
          request_id: 'req_1',
          details: [{ path: ['urls', 0], code: 'custom', message: 'bad' }],
        },
      };
      expect(ErrorBody.safeParse(body).success, code).toBe(true);
    }
  });

  it('maps codes to the statuses of api-v1.md', () => {
    expect(ERROR_STATUS).toMatchObject({
      invalid_request: 400,
      unauthorized: 401,
      not_found: 404,
      conflict: 409,
      payload_too_large: 413,
      unsupported_media_type: 415,
      unprocessable_url: 422,
      rate_limited: 429,
      internal: 500,
      unavailable: 503,
    });
  });

  it('rejects an unknown code and a missing request id; the lenient reading accepts both', () => {
    expectIssueAt(ErrorBody, { error: { code: 'teapot', message: 'm', request_id: 'r' } }, ['error', 'code']);
    expectIssueAt(ErrorBody, { error: { code: 'internal', message: 'm' } }, ['error', 'request_id']);
    expect(ErrorBodyLenient.safeParse({ error: { code: 'teapot' } }).success).toBe(true);
  });
});
