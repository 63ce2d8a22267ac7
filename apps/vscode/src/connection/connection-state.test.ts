import { AuthenticationError, ConnectionError, RateLimitError } from '@webdata/core';
import { describe, expect, it } from 'vitest';
import { keyVerdictAfter, stateAfter } from './connection-state.js';

describe('stateAfter', () => {
  it('tells a 429 (asked to wait) apart from other errors, as from a refused key and no answer', () => {
    const limited = new RateLimitError({
      status: 429,
      code: 'rate_limited',
      message: 'too many requests without a valid API key from this address; retry in 3 s',
      retryAfterMs: 3_000,
    });
    expect(stateAfter(limited)).toBe('rateLimited');
    expect(stateAfter(new AuthenticationError({ status: 401, code: 'unauthorized', message: 'no' }))).toBe(
      'unauthorized',
    );
    expect(stateAfter(new ConnectionError('connect ECONNREFUSED 127.0.0.1:9'))).toBe('unreachable');
    expect(stateAfter(new Error('other'))).toBe('error');
  });
});

describe('keyVerdictAfter', () => {
  it('accepts a key only on an answer, refuses it on a 401, and keeps the verdict when the service says nothing of it', () => {
    expect(keyVerdictAfter('untried', 'connected')).toBe('accepted');
    expect(keyVerdictAfter('untried', 'unauthorized')).toBe('refused');
    expect(keyVerdictAfter('accepted', 'unauthorized')).toBe('refused');
    expect(keyVerdictAfter('refused', 'connected')).toBe('accepted');
    expect(keyVerdictAfter('accepted', 'noKey')).toBe('none');
    for (const silent of ['connecting', 'unreachable', 'rateLimited', 'error'] as const) {
      expect(keyVerdictAfter('accepted', silent)).toBe('accepted');
      expect(keyVerdictAfter('refused', silent)).toBe('refused');
      expect(keyVerdictAfter('untried', silent)).toBe('untried');
    }
  });
});
