import { describe, expect, it } from 'vitest';
import { countOf } from './count-of.js';

describe('countOf', () => {
  it('is singular for one only', () => {
    expect(countOf(1, 'page')).toBe('1 page');
    expect(countOf(0, 'URL')).toBe('0 URLs');
    expect(countOf(300, 'run')).toBe('300 runs');
  });
});
