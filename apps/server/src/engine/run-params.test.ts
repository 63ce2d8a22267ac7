import { describe, expect, it } from 'vitest';
import { readRunParams } from './run-params.js';

describe('readRunParams', () => {
  it('reads the same params object once and gives its typed params again', () => {
    const stored = { url: 'https://docs.example/', max_depth: 2 };
    const first = readRunParams('deep-crawl', stored);
    expect(first.type).toBe('deep-crawl');
    expect(first.params).toMatchObject({ url: 'https://docs.example/', max_depth: 2, respect_robots: true });
    expect(readRunParams('deep-crawl', stored)).toBe(first);
  });

  it('reads an equal but other object, or the same object as another type, afresh', () => {
    const stored = { url: 'https://docs.example/' };
    const deep = readRunParams('deep-crawl', stored);
    const other = readRunParams('deep-crawl', { url: 'https://docs.example/' });
    expect(other).not.toBe(deep);
    expect(other).toEqual(deep);
    const crawl = readRunParams('crawl', stored);
    expect(crawl.type).toBe('crawl');
    expect(crawl).not.toBe(deep);
  });

  it('still refuses params its type does not allow, every time', () => {
    const stored = { url: 'https://docs.example/', max_depth: 'deep' };
    expect(() => readRunParams('deep-crawl', stored)).toThrow();
    expect(() => readRunParams('deep-crawl', stored)).toThrow();
  });
});
