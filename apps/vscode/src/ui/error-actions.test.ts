import { ApiError, AuthenticationError, ConnectionError, NotFoundError, RateLimitError } from '@webdata/core';
import { describe, expect, it } from 'vitest';
import { errorActions } from './error-actions.js';

describe('errorActions', () => {
  const down = new ConnectionError('connect ECONNREFUSED 127.0.0.1:8787');

  it('offers Try Again first when the action can be asked again and the service did not answer', () => {
    expect(errorActions(down, true)).toEqual(['Try Again', 'Change the Address…', 'Show Log']);
    expect(errorActions(down, false)).toEqual(['Change the Address…', 'Show Log']);
  });

  it('offers no Try Again where doing it again as it was cannot help', () => {
    const refused = new AuthenticationError({ status: 401, code: 'unauthorized', message: 'bad key' });
    expect(errorActions(refused, true)).toEqual(['Set API Key…', 'Show Log']);
    expect(errorActions(new Error('boom'), true)).toEqual(['Show Log']);
    const noKey = Object.assign(new Error('No API key is set'), {
      name: 'NotConnectedError',
      state: 'noKey',
    });
    expect(errorActions(noKey, true)).toEqual(['Set API Key…', 'Show Log']);
  });

  it('offers Try Again when the service asked to wait', () => {
    const wait = new RateLimitError({ status: 429, code: 'rate_limited', message: 'slow down' });
    expect(errorActions(wait, true)[0]).toBe('Try Again');
  });

  it('offers another address, then the same request again, when starting a run meets no Web Data service (404, 405)', () => {
    const missing = new NotFoundError({ status: 404, code: 'not_found', message: 'HTTP 404' });
    expect(errorActions(missing, true, true)).toEqual(['Change the Address…', 'Try Again', 'Show Log']);
    expect(errorActions(missing, false, true)).toEqual(['Change the Address…', 'Show Log']);
    const notAllowed = new ApiError({ status: 405, code: 'http_405', message: 'HTTP 405' });
    expect(errorActions(notAllowed, true, true)).toEqual(['Change the Address…', 'Try Again', 'Show Log']);
    // Elsewhere a 404 is a run or a result that is not there (deleted): no other address mends it.
    expect(errorActions(missing, true)).toEqual(['Show Log']);
  });
});
