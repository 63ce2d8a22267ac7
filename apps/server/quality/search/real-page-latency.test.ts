import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { benchRealPages, realPages } from './real-page-latency.js';

describe('search latency on real pages', () => {
  const root = mkdtempSync(join(tmpdir(), 'real-page-latency-test-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const page = (title: string, text: string) =>
    `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>${`<p>${text}</p>`.repeat(80)}</main></body></html>`;
  mkdirSync(join(root, 'library'));
  writeFileSync(join(root, 'tea.html'), page('Green tea', 'Brew green tea leaves in water below boiling.'));
  writeFileSync(join(root, 'library', 'chain.html'), page('Chain care', 'Oil the bicycle chain after rain.'));
  // A redirect stub (too small) and a link-only index (too large) are left out, as the crawls leave them.
  writeFileSync(join(root, 'stub.html'), '<html><body><a href="tea.html">tea</a></body></html>');
  writeFileSync(join(root, 'index-of-everything.html'), page('Index', 'x '.repeat(4_000)));
  const manual = { name: 'tiny', debianPackage: 'none', root, start: 'tea.html' };

  it('converts each page of a size a crawl indexes, as the crawl does', () => {
    const pages = realPages([manual]);
    expect(pages.map((p) => [p.url, p.title])).toEqual([
      ['https://tiny.example/library/chain.html', 'Chain care'],
      ['https://tiny.example/tea.html', 'Green tea'],
    ]);
    expect(pages[1]?.headings).toEqual(['Green tea']);
    expect(pages[1]?.body).toContain('Brew green tea leaves');
  });

  it('fills each size with copies under URLs of their own and times every dev question', async () => {
    const [small, large] = await benchRealPages(realPages([manual]), [1, 5]);
    expect(small).toMatchObject({ documents: 1, distinctPages: 1 });
    expect(large).toMatchObject({ documents: 5, distinctPages: 2 });
    expect(large?.queries).toBeGreaterThan(100);
    // The first stage's in-memory copy was built before the questions (the server's steady state).
    expect(large?.mirror?.bytes).toBeGreaterThan(0);
    for (const f of [small, large]) {
      expect(f?.p95Ms).toBeGreaterThanOrEqual(f?.p50Ms ?? Number.NaN);
      expect(f?.plainFts5P95Ms).toBeGreaterThanOrEqual(f?.plainFts5P50Ms ?? Number.NaN);
      // The repeat round is timed apart from the first asking (what is kept across searches helps it only).
      expect(f?.again.p95Ms).toBeGreaterThanOrEqual(f?.again.p50Ms ?? Number.NaN);
      expect(f?.again.plainFts5P95Ms).toBeGreaterThanOrEqual(f?.again.plainFts5P50Ms ?? Number.NaN);
    }
  });
});
