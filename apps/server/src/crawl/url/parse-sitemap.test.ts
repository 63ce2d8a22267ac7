import { describe, expect, it } from 'vitest';
import { MAX_SITEMAP_ENTRIES, parseSitemap } from './parse-sitemap.js';

describe('parseSitemap', () => {
  it('reads the pages of a urlset', async () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
      <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
              xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
        <url><loc>https://x.org/a</loc><lastmod>2024-01-01</lastmod></url>
        <url>
          <loc>
            https://x.org/b?x=1&amp;y=2
          </loc>
          <image:image><image:loc>https://cdn.x.org/pic.png</image:loc></image:image>
        </url>
        <url><loc><![CDATA[https://x.org/c?q=<1>]]></loc></url>
        <url><loc>https://x.org/a</loc></url>
      </urlset>`;
    expect(await parseSitemap(xml)).toEqual({
      urls: ['https://x.org/a', 'https://x.org/b?x=1&y=2', 'https://x.org/c?q=<1>'],
      sitemaps: [],
    });
  });

  it('reads the sitemaps of a sitemapindex', async () => {
    const xml = `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
        <sitemap><loc>https://x.org/sitemap-1.xml</loc></sitemap>
        <sitemap><loc>https://x.org/sitemap-2.xml.gz</loc><lastmod>2024-01-01</lastmod></sitemap>
      </sitemapindex>`;
    expect(await parseSitemap(xml)).toEqual({
      urls: [],
      sitemaps: ['https://x.org/sitemap-1.xml', 'https://x.org/sitemap-2.xml.gz'],
    });
  });

  it('reads prefixed and upper-case element names', async () => {
    const xml = `<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9">
        <sm:url><sm:loc>https://x.org/p</sm:loc></sm:url>
        <URL><LOC>https://x.org/q</LOC></URL>
      </sm:urlset>`;
    expect((await parseSitemap(xml)).urls).toEqual(['https://x.org/p', 'https://x.org/q']);
  });

  it('skips relative, empty and non-http locations', async () => {
    const xml = `<urlset><url><loc>/relative</loc></url><url><loc></loc></url>
      <url><loc>ftp://x.org/f</loc></url><url><loc>javascript:alert(1)</loc></url>
      <url><loc>https://x.org/ok</loc></url></urlset>`;
    expect((await parseSitemap(xml)).urls).toEqual(['https://x.org/ok']);
  });

  it('survives malformed XML and non-XML input', async () => {
    expect(
      await parseSitemap('<urlset><url><loc>https://x.org/a</loc></url><url><loc>https://x.org/b'),
    ).toEqual({
      urls: ['https://x.org/a', 'https://x.org/b'],
      sitemaps: [],
    });
    expect(await parseSitemap('')).toEqual({ urls: [], sitemaps: [] });
    expect(await parseSitemap('<html><body><a href="https://x.org">x</a></body></html>')).toEqual({
      urls: [],
      sitemaps: [],
    });
  });

  it(`keeps at most ${MAX_SITEMAP_ENTRIES} entries`, async () => {
    const entries = Array.from(
      { length: MAX_SITEMAP_ENTRIES + 10 },
      (_, i) => `<url><loc>https://x.org/p${i}</loc></url>`,
    );
    const { urls } = await parseSitemap(`<urlset>${entries.join('')}</urlset>`);
    expect(urls).toHaveLength(MAX_SITEMAP_ENTRIES);
    expect(urls.at(-1)).toBe(`https://x.org/p${MAX_SITEMAP_ENTRIES - 1}`);
  });

  it('reads the same in turns, whatever the chunks cut (a tag, an entity, a CDATA section)', async () => {
    const xml = `<?xml version="1.0"?><urlset xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
        <url><loc> https://x.org/b?x=1&amp;y=2 </loc><image:image><image:loc>https://cdn.x.org/i.png</image:loc></image:image></url>
        <url><loc><![CDATA[https://x.org/c?q=<1>]]></loc></url><sm:url><sm:loc>https://x.org/p</sm:loc></sm:url>
        <URL><LOC>https://x.org/q</LOC></URL></urlset>`;
    const whole = await parseSitemap(xml);
    expect(whole.urls).toEqual([
      'https://x.org/b?x=1&y=2',
      'https://x.org/c?q=<1>',
      'https://x.org/p',
      'https://x.org/q',
    ]);
    for (const size of [1, 2, 3, 5, 7, 11, 64]) expect(await parseSitemap(xml, size)).toEqual(whole);
  });

  it('lets the event loop turn between two chunks', async () => {
    const entries = Array.from({ length: 300 }, (_, i) => `<url><loc>https://x.org/p${i}</loc></url>`);
    let turned = false;
    setImmediate(() => {
      turned = true;
    });
    const { urls } = await parseSitemap(`<urlset>${entries.join('')}</urlset>`, 1024);
    expect(urls).toHaveLength(300);
    expect(turned).toBe(true);
  });
});
