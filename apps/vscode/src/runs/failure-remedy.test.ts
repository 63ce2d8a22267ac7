import { describe, expect, it } from 'vitest';
import { failureRemedy } from './failure-remedy.js';

const failed = (code: string, http_status: number | null = null) => ({ error: { code }, http_status });

describe('failureRemedy', () => {
  it('says a failure that will repeat cannot pass, and what to do instead', () => {
    for (const [code, status] of [
      ['unprocessable_url', null],
      ['robots_disallowed', null],
      ['extraction_failed', null],
      ['unsupported_content', null],
      ['too_large', null],
      ['http_error', 404],
      ['http_error', 401],
      ['http_error', 403],
      ['http_error', 400],
    ] as const) {
      expect(failureRemedy(failed(code, status)).mayPass, `${code} ${status}`).toBe(false);
    }
    expect(failureRemedy(failed('http_error', 404))).toEqual({
      mayPass: false,
      advice: 'No page is at this address: check the URL.',
      fix: 'openPage',
    });
    expect(failureRemedy(failed('extraction_failed')).fix).toBe('extractAgain');
    expect(failureRemedy(failed('http_error', 401)).advice).toContain('login');
    expect(failureRemedy(failed('unprocessable_url')).advice).toContain('--allow-private-networks');
    expect(failureRemedy(failed('too_large')).advice).toContain('WEBDATA_MAX_DOWNLOAD_BYTES');
  });

  it('lets a failure of the moment, or one it does not know, be retried', () => {
    for (const [code, status] of [
      ['timeout', null],
      ['fetch_failed', null],
      ['crashed', null],
      ['http_error', 503],
      ['http_error', 429],
      ['http_error', null],
      ['a_code_of_tomorrow', null],
    ] as const) {
      expect(failureRemedy(failed(code, status)), `${code} ${status}`).toEqual({ mayPass: true });
    }
    expect(failureRemedy({ error: null, http_status: null })).toEqual({ mayPass: true });
  });
});
