import { describe, expect, it } from 'vitest';
import { urlsTitle } from './urls-title.js';

describe('urlsTitle', () => {
  it('names the URL the box will use, and how many more', () => {
    expect(urlsTitle('Extract from', ['https://www.shop.example/p/lamp'])).toBe(
      'Web Data: Extract from shop.example/p/lamp',
    );
    expect(urlsTitle('Crawl', ['https://a.example/x', 'https://a.example/y'])).toBe(
      'Web Data: Crawl a.example/x and 1 more URL',
    );
    expect(urlsTitle('Deep crawl from', ['https://a.example/'])).toBe('Web Data: Deep crawl from a.example');
    expect(urlsTitle('Crawl', [])).toBe('Web Data: Crawl URLs');
  });
});
