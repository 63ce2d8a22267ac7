import { AuthenticationError, ConnectionError, RateLimitError } from '@webdata/core';
import { describe, expect, it } from 'vitest';
import { errorActions } from './error-actions.js';

describe('errorActions', () => {
  const down = new ConnectionError('connect ECONNREFUSED 127.0.0.1:8787');

  it('offers Try Again first when the action can be asked again and the service did not answer', () => {
    expect(errorActions(down, true)).toEqual(['Try Again', 'Open Settings', 'Show Log']);
    expect(errorActions(down, false)).toEqual(['Open Settings', 'Show Log']);
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
});
