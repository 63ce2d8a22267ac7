import { describe, expect, it } from 'vitest';
import { findUrls, typedUrls, uniqueUrls, urlNearest } from './find-urls.js';

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

describe('urlNearest', () => {
  const text = [
    '# Pages',
    '- json: https://docs.example/json.html',
    '- re: https://docs.example/re.html',
    'Deep crawl start: https://docs.example/tutorial/ and https://docs.example/other/',
  ].join('\n');

  it('is the URL the cursor is in, or the first on its line', () => {
    expect(urlNearest(text, text.indexOf('re.html'))).toBe('https://docs.example/re.html');
    expect(urlNearest(text, text.indexOf('Deep'))).toBe('https://docs.example/tutorial/');
    expect(urlNearest(text, text.indexOf('other'))).toBe('https://docs.example/other/');
    // At the end of a URL (the cursor just after it) it is still that URL.
    const end = text.indexOf('re.html') + 're.html'.length;
    expect(urlNearest(text, end)).toBe('https://docs.example/re.html');
  });

  it('is the first of the text on a line without one, and none in a text without one', () => {
    expect(urlNearest(text, 0)).toBe('https://docs.example/json.html');
    expect(urlNearest('no address here', 3)).toBeUndefined();
  });
});

describe('typedUrls', () => {
  it('takes addresses typed without a scheme as a browser does: https, http for local ones', () => {
    expect(typedUrls('docs.python.org/3/library')).toEqual(['https://docs.python.org/3/library']);
    expect(typedUrls('example.org')).toEqual(['https://example.org/']);
    expect(typedUrls('localhost:8000/a 127.0.0.1:18900/x.html, 192.168.1.2')).toEqual([
      'http://localhost:8000/a',
      'http://127.0.0.1:18900/x.html',
      'http://192.168.1.2/',
    ]);
  });

  it('keeps URLs with a scheme as they are, drops words that are no address, and duplicates', () => {
    expect(typedUrls('https://a.example/x notaurl, a.example/x https://a.example/x.')).toEqual([
      'https://a.example/x',
    ]);
    expect(typedUrls('hello world v1.2')).toEqual([]);
    expect(typedUrls('ftp://a.example/x')).toEqual([]);
  });
});
