import { describe, expect, it } from 'vitest';
import { findUrls, uniqueUrls } from './find-urls.js';

describe('findUrls', () => {
  it('finds URLs in Markdown links, autolinks, reference definitions and prose', () => {
    const markdown = [
      '# Shops',
      'See [the lamp](https://shop.example/p/lamp) and <https://shop.example/p/desk>.',
      'Plain: https://shop.example/p/chair, then (https://shop.example/p/stool).',
      '[ref]: https://shop.example/ref "Title"',
      '**https://shop.example/bold**',
    ].join('\n');
    expect(uniqueUrls(markdown)).toEqual([
      'https://shop.example/p/lamp',
      'https://shop.example/p/desk',
      'https://shop.example/p/chair',
      'https://shop.example/p/stool',
      'https://shop.example/ref',
      'https://shop.example/bold',
    ]);
  });

  it('keeps balanced parentheses that belong to the URL', () => {
    expect(uniqueUrls('[x](https://en.wikipedia.org/wiki/Lamp_(furniture))')).toEqual([
      'https://en.wikipedia.org/wiki/Lamp_(furniture)',
    ]);
  });

  it('reads HTML attributes and decodes &amp;', () => {
    const html =
      '<a href="https://a.example/list?page=2&amp;sort=price">next</a><img src=\'https://a.example/i.png\'>';
    expect(uniqueUrls(html)).toEqual(['https://a.example/list?page=2&sort=price', 'https://a.example/i.png']);
  });

  it('reads JSON strings and CSV fields, including URLs separated only by a comma', () => {
    expect(uniqueUrls('{"urls": ["https://a.example/1", "http://b.example:8080/2"]}')).toEqual([
      'https://a.example/1',
      'http://b.example:8080/2',
    ]);
    expect(
      uniqueUrls('name,url\nlamp,https://a.example/lamp\ndesk,https://a.example/d,https://b.example/e\n'),
    ).toEqual(['https://a.example/lamp', 'https://a.example/d', 'https://b.example/e']);
  });

  it('keeps commas inside a URL that are not followed by another URL', () => {
    expect(uniqueUrls('https://a.example/a,b,c')).toEqual(['https://a.example/a,b,c']);
  });

  it('reports where each URL was written, duplicates included', () => {
    const text = 'go to https://x.example/a. Then https://x.example/a again';
    const found = findUrls(text);
    expect(found).toHaveLength(2);
    for (const { url, start, end } of found) {
      expect(url).toBe('https://x.example/a');
      expect(text.slice(start, end)).toBe('https://x.example/a');
    }
    const csv = 'https://a.example/d,https://b.example/e';
    expect(findUrls(csv).map(({ start, end }) => csv.slice(start, end))).toEqual([
      'https://a.example/d',
      'https://b.example/e',
    ]);
  });

  it('normalises and dedupes by the normalised form', () => {
    expect(uniqueUrls('HTTPS://A.EXAMPLE and https://a.example/')).toEqual(['https://a.example/']);
  });

  it('ignores other schemes, bare hosts and malformed URLs', () => {
    expect(uniqueUrls('ftp://a.example/x mailto:a@b.example www.example.org https:// http://[::1')).toEqual(
      [],
    );
  });

  it('handles text without URLs and large texts', () => {
    expect(findUrls('')).toEqual([]);
    const big = `${'word '.repeat(200_000)}https://end.example/`;
    expect(uniqueUrls(big)).toEqual(['https://end.example/']);
  });
});
