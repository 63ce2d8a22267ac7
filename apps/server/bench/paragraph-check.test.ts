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
  it('finds a kept block as the page has it, where Readability stripped part of it', () => {
    // Readability removes the span from inside the paragraph (its class reads like a header to it).
    const html = article(
      '<p>Also add a <span class="mailheader">Content-Type</span> header to the message, with its parameters.</p>',
    );
    const block = readabilityBlocks(html, url).find((b) => b.kept.startsWith('alsoadd'));
    expect(block).toEqual({
      kept: 'alsoaddaheadertothemessagewithitsparameters',
      page: 'alsoaddacontenttypeheadertothemessagewithitsparameters',
      chrome: false,
    });
    expect(
      missingBlocks([block!], 'Also add a Content-Type header to the message, with its parameters.'),
    ).toEqual([]);
    // Dropping the span, as Readability does, loses nothing Readability kept.
    expect(missingBlocks([block!], 'Also add a header to the message, with its parameters.')).toEqual([]);
    // Losing a word Readability kept is found.
    expect(missingBlocks([block!], 'Also add a Content-Type header to the message.')).toEqual([block]);
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
    const block = (text: string) => ({ kept: text, page: text, chrome: false });
    expect(missingBlocks([block('onetwo'), block('three')], 'One, *two*.\n\n- three')).toEqual([]);
    expect(missingBlocks([block('onetwo'), block('four')], 'one three two')).toEqual([
      block('onetwo'),
      block('four'),
    ]);
  });

  it("sets apart what Readability keeps only with its chrome filter off, outside the page's marked content", () => {
    // Under 500 characters of content: Readability runs again without its chrome filter and keeps the footer.
    const page = (main: string) =>
      `<!doctype html><html><head><title>Index</title></head><body>${main}` +
      '<div class="footer">Copyright 2001-2026, the Foundation. <br>Last updated on October 07, 2026.</div></body></html>';
    const marked = readabilityBlocks(
      page('<div role="main"><h1>Index J</h1><p>Jansen, Jack; java_ver(), in module platform.</p></div>'),
      url,
    );
    expect(marked.filter((b) => b.chrome).map((b) => b.kept)).toEqual([
      'copyright20012026thefoundationlastupdatedonoctober072026',
    ]);
    expect(marked.filter((b) => !b.chrome).map((b) => b.kept)).toContain('jansenjackjavaverinmoduleplatform');
    // The same page marking no content: nothing is set apart, the footer counts like any block.
    const unmarked = readabilityBlocks(
      page('<div><h1>Index J</h1><p>Jansen, Jack; java_ver(), in module platform.</p></div>'),
      url,
    );
    expect(unmarked.some((b) => b.kept.startsWith('copyright'))).toBe(true);
    expect(unmarked.every((b) => !b.chrome)).toBe(true);
    // A footer-like element inside the marked content is the content's own: counted.
    const inside = readabilityBlocks(
      page(
        '<main><p>Jansen, Jack; java_ver(), in module platform.</p><div class="footer"><p>A note below.</p></div></main>',
      ),
      url,
    );
    expect(inside.find((b) => b.kept === 'anotebelow')).toEqual({
      kept: 'anotebelow',
      page: 'anotebelow',
      chrome: false,
    });
  });
});
