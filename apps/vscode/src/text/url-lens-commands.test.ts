import { describe, expect, it } from 'vitest';
import { urlLensCommands } from './url-lens-commands.js';

describe('the lenses above a line of URLs', () => {
  it('offer Extract, Crawl and Deep crawl of the URL, each with it', () => {
    const lenses = urlLensCommands(['https://shop.example/p/lamp']);
    expect(lenses.map((lens) => [lens.command, lens.title, lens.arguments])).toEqual([
      ['webdata.extractFromUrl', 'Extract from this URL', [['https://shop.example/p/lamp']]],
      ['webdata.crawlUrls', 'Crawl', [{ urls: ['https://shop.example/p/lamp'] }]],
      ['webdata.deepCrawl', 'Deep crawl', [{ url: 'https://shop.example/p/lamp' }]],
    ]);
  });

  it('count the URLs of a line with several, a deep crawl starting from the first', () => {
    const lenses = urlLensCommands(['https://a.example/', 'https://b.example/']);
    expect(lenses.map((lens) => lens.title)).toEqual([
      'Extract from these 2 URLs',
      'Crawl these 2',
      'Deep crawl from the first',
    ]);
    expect(lenses[1]?.tooltip).toContain('https://b.example/');
    expect(lenses[2]?.arguments).toEqual([{ url: 'https://a.example/' }]);
  });
});
