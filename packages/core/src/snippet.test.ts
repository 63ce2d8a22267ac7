import { describe, expect, it } from 'vitest';
import { snippetParts, snippetText } from './snippet.js';

describe('snippetParts', () => {
  it('splits a snippet into its marked and unmarked runs, entities decoded', () => {
    expect(snippetParts('staged in the &quot;<mark>index</mark>&quot; &amp; &lt;tree&gt; it&#39;s')).toEqual([
      { text: 'staged in the "', match: false },
      { text: 'index', match: true },
      { text: '" & <tree> it\'s', match: false },
    ]);
  });

  it('decodes any entity a foreign server may write and drops tags other than <mark>', () => {
    expect(snippetParts('a&nbsp;<b>b</b> &#x263A; <mark>c&#x27;d</mark>')).toEqual([
      { text: 'a\u00a0b ☺ ', match: false },
      { text: "c'd", match: true },
    ]);
  });

  it('keeps an escaped <mark> written in the page as text, not as a match', () => {
    expect(snippetParts('&lt;mark&gt;not a match&lt;/mark&gt;')).toEqual([
      { text: '<mark>not a match</mark>', match: false },
    ]);
  });

  it('gives adjacent and empty marks as they are, without empty runs', () => {
    expect(snippetParts('<mark>a</mark><mark>b</mark><mark></mark>')).toEqual([
      { text: 'a', match: true },
      { text: 'b', match: true },
    ]);
    expect(snippetParts('')).toEqual([]);
  });
});

describe('snippetText', () => {
  it('is the page text without the marks', () => {
    expect(snippetText('… <mark>retries</mark> with &lt;backoff&gt; …')).toBe('… retries with <backoff> …');
  });
});
