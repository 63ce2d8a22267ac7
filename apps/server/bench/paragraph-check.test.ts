import { describe, expect, it } from 'vitest';
import { markdownWords, missingBlocks, readabilityBlocks } from './paragraph-check.js';

const url = 'https://e.com/page.html';
/** A page Readability takes as an article: prose paragraphs, with `paragraph` among them. */
function article(paragraph: string): string {
  const prose = Array.from(
    { length: 6 },
    (_, i) =>
      `<p>Paragraph ${i} of the article, with commas, clauses, and enough words to be scored as prose by Readability, which wants length.</p>`,
  ).join('');
  return `<!doctype html><html><head><title>T</title></head><body><div class="content">${prose}${paragraph}</div></body></html>`;
}

describe('the paragraph check', () => {
  it('reads a kept block as the page has it, not as Readability left it', () => {
    // Readability removes the span from inside the paragraph (its class reads like a header to it).
    const html = article(
      '<p>Also add a <span class="mailheader">Content-Type</span> header to the message, with its parameters.</p>',
    );
    const blocks = readabilityBlocks(html, url);
    expect(blocks).toContain('alsoaddacontenttypeheadertothemessagewithitsparameters');
    expect(
      missingBlocks(blocks, 'Also add a Content-Type header to the message, with its parameters.'),
    ).not.toContain('alsoaddacontenttypeheadertothemessagewithitsparameters');
    // A converter that drops the span loses words of the paragraph: found.
    expect(missingBlocks(blocks, 'Also add a header to the message, with its parameters.')).toContain(
      'alsoaddacontenttypeheadertothemessagewithitsparameters',
    );
  });

  it('drops link targets from the Markdown but not code that looks like a link', () => {
    expect(markdownWords('See [the guide](https://e.com/guide "Guide") and <https://e.com/x>.')).toBe(
      'seetheguideand',
    );
    expect(markdownWords('`.*[.](?!bat$)[^.]*$` excludes `bat`')).toBe('batexcludesbat');
    expect(markdownWords('```re\n[a](?!b)\n```\n\n[c](https://e.com/d)')).toBe('reabc');
    expect(markdownWords('an escaped \\` backtick [e](https://e.com/f)')).toBe('anescapedbackticke');
  });

  it('finds a block only where its words stand together, in order', () => {
    expect(missingBlocks(['onetwo', 'three'], 'One, *two*.\n\n- three')).toEqual([]);
    expect(missingBlocks(['onetwo', 'four'], 'one three two')).toEqual(['onetwo', 'four']);
  });
});
