import { describe, expect, it } from 'vitest';
import { SNIPPET_CLOSE, SNIPPET_ELLIPSIS, SNIPPET_OPEN } from '../store/sqlite/search/index.js';
import { passageNeedles, rescoreByPassage } from './passage.js';
import { parseSearchQuery, positiveClauses } from './query-parser.js';
import { pageSnippet, SNIPPET_WORDS, snippetBuilder, snippetNeedles, snippetsOfPages } from './snippet.js';
import { ANALYZED_CHARACTERS, TextScans } from './text-scans.js';

/** The snippet with readable markers: `[word]` for a mark, `…` for the ellipsis. */
function shown(query: string, text: string): string | undefined {
  return snippetBuilder(parseSearchQuery(query))(text)
    ?.text.replaceAll(SNIPPET_OPEN, '[')
    .replaceAll(SNIPPET_CLOSE, ']')
    .replaceAll(SNIPPET_ELLIPSIS, '…');
}

const filler = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) => `filler${from + i}`).join(' ');

describe('snippetBuilder', () => {
  it('marks the words of the same light stem, in any case, and a short text whole', () => {
    expect(shown('sort lists', 'To Sort a list, call sorted().')).toBe(
      'To [Sort] a [list], call [sorted]().',
    );
  });

  it('marks inflections and derivations as the index stems them, not other words', () => {
    expect(shown('delete', 'Deleting, deletes; deleted. Delegate.')).toBe(
      '[Deleting], [deletes]; [deleted]. Delegate.',
    );
    expect(shown('secure', 'security matters')).toBe('[security] matters');
    expect(shown('sort', 'resorting a list')).toBeUndefined();
  });

  it('marks synonyms, a prefix (stemmed as the index stems it) and a phrase as one span', () => {
    expect(shown('delete branch', 'To remove a branch.')).toBe('To [remove] a [branch].');
    expect(shown('unit tests', 'unit testing of modules')).toBe('[unit] [testing] of modules');
    expect(shown('confi', 'Configuration and config.')).toBe('[Configuration] and [config].');
    expect(shown('"exponential backoff"', 'exponential growth; exponential  backoff.')).toBe(
      'exponential growth; [exponential  backoff].',
    );
  });

  it('marks nothing of a -not clause and finds nothing in a text without the words', () => {
    expect(shown('cache -redis', 'a redis cache')).toBe('a redis [cache]');
    expect(shown('cache', 'nothing here')).toBeUndefined();
    expect(shown('cache', '')).toBeUndefined();
  });

  it('shows about thirty words around the window holding the most distinct words', () => {
    const text = `${filler(0, 100)} alpha ${filler(100, 100)} alpha beta ${filler(200, 100)}`;
    const snippet = shown('alpha beta', text)!;
    expect(snippet).toContain('[alpha] [beta]');
    expect(snippet.startsWith('…') && snippet.endsWith('…')).toBe(true);
    expect(snippet.replace(/…/g, '').trim().split(/\s+/)).toHaveLength(SNIPPET_WORDS);
    expect(snippet).toContain('filler199');
  });

  it('starts at a line start among the words before, and gives the context after', () => {
    const text = `${filler(0, 50)}\nThe needle here. ${filler(50, 50)}`;
    const snippet = shown('needle', text)!;
    expect(snippet.startsWith('…The [needle] here.')).toBe(true);
    expect(snippet.replace(/…/g, '').trim().split(/\s+/)).toHaveLength(SNIPPET_WORDS);
  });

  it('keeps offsets when lower-casing changes a length (İ)', () => {
    expect(shown('sort', 'İİİ the sort')).toBe('İİİ the [sort]');
  });

  it('cuts a very long word where the snippet starts or ends', () => {
    const snippet = shown('needle', `${'x'.repeat(5_000)}needle ${'y'.repeat(5_000)}`);
    expect(snippet).toBeUndefined();
    const long = shown('needle', `${'x'.repeat(5_000)} needle ${'y'.repeat(5_000)}`)!;
    expect(long.length).toBeLessThan(200);
    expect(long).toContain('[needle]');
  });
});

describe('pageSnippet', () => {
  const build = snippetBuilder(parseSearchQuery('generics'));

  it('takes the body when it holds a word, else the title or headings that hold more', () => {
    expect(pageSnippet(build, { body: 'About generics.', title: 'Generics', headings: '' })).toContain(
      'About',
    );
    expect(pageSnippet(build, { body: 'Type parameters.', title: 'Generics in depth', headings: '' })).toBe(
      `${SNIPPET_OPEN}Generics${SNIPPET_CLOSE} in depth`,
    );
    expect(pageSnippet(build, { body: 'x', title: null, headings: 'Intro\nGenerics\nBounds' })).toBe(
      `${SNIPPET_ELLIPSIS}${SNIPPET_OPEN}Generics${SNIPPET_CLOSE}\nBounds`,
    );
    expect(pageSnippet(build, { body: 'x', title: 'y', headings: 'z' })).toBeNull();
  });

  it('marks only what the first ANALYZED_CHARACTERS characters of a body hold, else shows its opening', () => {
    const long = `Opening words. ${'plain '.repeat(Math.ceil(ANALYZED_CHARACTERS / 6))}`;
    // The word past the analysed part is neither marked nor left to the index (which reads it all).
    expect(pageSnippet(build, { body: `${long} Generics.`, title: 'y', headings: 'z' })).toBe(
      `Opening words. ${'plain '.repeat(SNIPPET_WORDS - 2).trim()}${SNIPPET_ELLIPSIS}`,
    );
    expect(pageSnippet(build, { body: `${long} Generics.`, title: 'Generics', headings: '' })).toBe(
      `${SNIPPET_OPEN}Generics${SNIPPET_CLOSE}`,
    );
    expect(pageSnippet(build, { body: `About generics. ${long}`, title: null, headings: '' })).toContain(
      `About ${SNIPPET_OPEN}generics${SNIPPET_CLOSE}.`,
    );
  });
});

describe('snippetsOfPages', () => {
  it("gives the same snippets from the passage step's scans of the bodies as from scans of their own", () => {
    const bodies = new Map([
      [1, `${filler(0, 40)} Functional sorting of lists. ${filler(40, 40)} The function sorted() sorts.`],
      [2, 'İstanbul: a sorted list of functions, sorting them by key.'],
      [3, 'Nothing here.'],
      [4, 'Key functions: functools.cmp_to_key sorts; the key function.'],
    ]);
    const pages = (seq: number) => ({
      body: bodies.get(seq) ?? '',
      title: 'Sorting HOW TO',
      headings: 'Key functions',
    });
    for (const text of ['sort function', 'sorting functional key', '"key function" sort*', 'list sorted']) {
      const parsed = parseSearchQuery(text);
      const clauses = positiveClauses(parsed);
      const scans = new TextScans([...passageNeedles({ clauses }), ...snippetNeedles(parsed)]);
      // The passage step reads bodies 1 to 3; page 4 is read for its snippet only.
      const ranked = [1, 2, 3].map((seq) => ({ seq, score: 1 }));
      const read = new Map([...bodies].filter(([seq]) => seq !== 4));
      expect(rescoreByPassage(ranked, read, { clauses }, undefined, scans)).toEqual(
        rescoreByPassage(ranked, read, { clauses }),
      );
      expect(snippetsOfPages(parsed, [4, 2, 1, 3], pages, scans)).toEqual(
        snippetsOfPages(parsed, [4, 2, 1, 3], pages),
      );
    }
  });
});
