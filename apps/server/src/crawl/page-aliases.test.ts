import { describe, expect, it } from 'vitest';
import { pageAliases } from './page-aliases.js';

describe('pageAliases', () => {
  it('names where the page redirected and its same-site canonical, normalised, never the page itself', () => {
    expect(
      pageAliases({
        url: 'https://docs.example/a',
        finalUrl: 'https://docs.example/b?utm_source=x',
        canonicalUrl: 'https://docs.example/c',
      }),
    ).toEqual(['https://docs.example/b', 'https://docs.example/c']);
    expect(
      pageAliases({ url: 'https://docs.example/a', finalUrl: 'https://docs.example/a', canonicalUrl: null }),
    ).toEqual([]);
  });

  it('does not trust a canonical on another site', () => {
    expect(
      pageAliases({
        url: 'https://docs.example/a',
        finalUrl: 'https://docs.example/a',
        canonicalUrl: 'https://other.example/a',
      }),
    ).toEqual([]);
  });
});
