import { describe, expect, it } from 'vitest';
import { formatForRun } from './result-format.js';
import { isStaleSignature, isUsable } from './signed-url.js';

describe('signed screenshot URLs', () => {
  const now = Date.parse('2024-05-01T10:00:00.000Z');

  it('uses a URL well before its expiry and signs again near it or after it', () => {
    expect(isUsable({ url: 'u', expires_at: '2024-05-01T10:15:00.000Z' }, now)).toBe(true);
    expect(isUsable({ url: 'u', expires_at: '2024-05-01T10:00:20.000Z' }, now)).toBe(false);
    expect(isUsable({ url: 'u', expires_at: '2024-05-01T09:59:00.000Z' }, now)).toBe(false);
    expect(isUsable({ url: 'u' }, now)).toBe(false);
    expect(isUsable({ url: 'u', expires_at: 'soon' }, now)).toBe(false);
  });

  it('signs again after a refusal, not after a server error', () => {
    expect([403, 404, 410].map(isStaleSignature)).toEqual([true, true, true]);
    expect([200, 500, 503].map(isStaleSignature)).toEqual([false, false, false]);
  });
});

describe('formatForRun', () => {
  it('opens extracted data as JSON and crawled pages in the first format asked for', () => {
    expect(formatForRun({ type: 'extract', params: { formats: ['markdown'] } })).toBe('json');
    expect(formatForRun({ type: 'crawl', params: { formats: ['html', 'markdown'] } })).toBe('html');
    expect(formatForRun({ type: 'deep-crawl', params: {} })).toBe('markdown');
    expect(formatForRun({ type: 'crawl', params: { formats: ['pdf'] } })).toBe('markdown');
    expect(formatForRun({ type: 'crawl' })).toBe('markdown');
  });
});
