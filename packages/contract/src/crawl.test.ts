import { describe, expect, it } from 'vitest';
import { CrawlRequest, DeepCrawlRequest } from './crawl.js';
import { expectIssueAt } from './test-helpers.js';

describe('CrawlRequest', () => {
  it('accepts known urls and fills defaults', () => {
    const parsed = CrawlRequest.parse({ urls: ['https://a.example/', 'https://a.example/b'] });
    expect(parsed).toMatchObject({
      formats: ['markdown'],
      collection: 'default',
      respect_robots: true,
      limit: 10,
    });
  });

  it('accepts a start url with options', () => {
    const parsed = CrawlRequest.parse({
      url: 'https://docs.example/',
      limit: 50,
      formats: ['markdown', 'links'],
      include_paths: ['/docs/**'],
      exclude_paths: ['/docs/old/**'],
      collection: 'docs_v2',
    });
    expect(parsed.include_paths).toEqual(['/docs/**']);
  });

  it('rejects neither urls nor url, and both', () => {
    expectIssueAt(CrawlRequest, {}, ['urls']);
    expectIssueAt(CrawlRequest, { urls: ['https://a.example/'], url: 'https://a.example/' }, ['url']);
  });

  it('rejects bad URLs, formats, limits and collection names at their paths', () => {
    expectIssueAt(CrawlRequest, { url: 'ftp://a.example/' }, ['url']);
    expectIssueAt(CrawlRequest, { urls: ['../up'] }, ['urls', 0]);
    expectIssueAt(CrawlRequest, { url: 'https://a.example/', formats: ['pdf'] }, ['formats', 0]);
    expectIssueAt(CrawlRequest, { url: 'https://a.example/', limit: 0 }, ['limit']);
    expectIssueAt(CrawlRequest, { url: 'https://a.example/', limit: 2.5 }, ['limit']);
    expectIssueAt(CrawlRequest, { url: 'https://a.example/', collection: 'Has Spaces' }, ['collection']);
    expectIssueAt(CrawlRequest, { url: 'https://a.example/', include_paths: '/docs/**' }, ['include_paths']);
  });
});

describe('DeepCrawlRequest', () => {
  it('requires url and fills defaults', () => {
    expectIssueAt(DeepCrawlRequest, {}, ['url']);
    expect(DeepCrawlRequest.parse({ url: 'https://blog.example/' })).toMatchObject({
      max_depth: 3,
      limit: 100,
      use_sitemap: true,
      same_site: true,
    });
  });

  it('rejects a negative depth and a string limit', () => {
    expectIssueAt(DeepCrawlRequest, { url: 'https://a.example/', max_depth: -1 }, ['max_depth']);
    expectIssueAt(DeepCrawlRequest, { url: 'https://a.example/', limit: '10' }, ['limit']);
  });
});
