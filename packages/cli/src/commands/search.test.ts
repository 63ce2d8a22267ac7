import { describe, expect, it } from 'vitest';
import { terminalSnippet } from './search.js';

describe('terminalSnippet', () => {
  it('prints matches in bold and the characters the server escaped as themselves', () => {
    expect(terminalSnippet('staged in the &quot;<mark>index</mark>&quot; &amp; &lt;tree&gt; it&#39;s')).toBe(
      'staged in the "**index**" & <tree> it\'s',
    );
  });

  it('leaves escaped markup as text: a page cannot make bold', () => {
    expect(terminalSnippet('&lt;mark&gt;not a match&lt;/mark&gt; &#x263A; &bogus;')).toBe(
      '<mark>not a match</mark> ☺ &bogus;',
    );
  });
});
