import { describe, expect, it } from 'vitest';
import { convertFetched } from './convert-fetched.js';
import { WARM_UP_PAGES, warmUpConverter } from './converter-warm-up.js';

describe('warmUpConverter', () => {
  it('converts built-in pages that exercise the light path: picker and marked content, every kind of block', () => {
    expect(() => warmUpConverter()).not.toThrow();
    for (const page of WARM_UP_PAGES) {
      const converted = convertFetched({ kind: 'html', ...page, html: false });
      // The light path sets no Readability article: the warm-up never loads linkedom.
      expect(converted.article).toBeUndefined();
      expect(page.body.length).toBeGreaterThan(20_000);
      const markdown = converted.markdown;
      expect(markdown).toMatch(/^## \d+\. Options of step \d+/m);
      expect(markdown).toContain('| Name | Value | Meaning |');
      expect(markdown).toMatch(/```(python|sh)\n/);
      expect(markdown).toMatch(/^\s+1\. nested one/m);
      expect(converted.links.length).toBeGreaterThan(10);
      // The less common branches: escapes, line breaks, quotes, rules, items of several blocks.
      expect(markdown).toContain('a \\*star\\*, \\[brackets\\]');
      expect(markdown).toMatch(/ {2}\n1\\\. a line that starts like a list/);
      expect(markdown).toContain('> Quoted text of');
      expect(markdown).toMatch(/^---$/m);
      expect(markdown).toContain('``a`b``');
      expect(markdown).toMatch(/^ +Its second paragraph, {2}$/m);
      // The picker sets hidden elements aside (the marked content is taken as the page marks it).
      if (page === WARM_UP_PAGES[0]) expect(markdown).not.toContain('Hidden text');
      // The chrome around the content is left out on both pages.
      expect(markdown).not.toContain('Found a bug?');
      expect(markdown).not.toContain('Last updated');
    }
  });
});
