import { describe, expect, it } from 'vitest';
import { passageOffsets } from './find-passage.js';

const PAGE = [
  '# [`pathlib`](http://docs.example/pathlib.html) — Object-oriented filesystem paths',
  '',
  'This module offers classes representing filesystem paths.',
  '',
  '## Basic use',
  '',
  'Listing Python source files in this directory tree, with **globbing**:',
  '',
  "    >>> sorted(Path('.').glob('**/*.py'))",
].join('\n');

describe('passageOffsets', () => {
  it("finds the snippet's place in the Markdown page from its first matched word", () => {
    const snippet =
      'paths. Basic use Listing Python source files in this directory tree, with <mark>globbing</mark>: &gt;&gt;&gt; sorted(Path(&#39;.&#39;).<mark>glob</mark>(';
    const found = passageOffsets(PAGE, snippet);
    expect(found).toBeDefined();
    expect(PAGE.slice(found!.start, found!.end)).toBe(
      "paths.\n\n## Basic use\n\nListing Python source files in this directory tree, with **globbing**:\n\n    >>> sorted(Path('.').glob",
    );
  });

  it('selects the whole passage, not six words of it, across Markdown links', () => {
    const snippet =
      'pathlib — Object-oriented filesystem <mark>paths</mark> This module offers classes representing';
    const found = passageOffsets(PAGE, snippet);
    expect(PAGE.slice(found!.start, found!.end)).toBe(
      'pathlib`](http://docs.example/pathlib.html) — Object-oriented filesystem paths\n\nThis module offers classes representing',
    );
  });

  it("stops where the page parts from the snippet (a snippet's … between two stretches)", () => {
    const page = 'Zero one two three four five six seven eight. Elsewhere: nine ten eleven.';
    const found = passageOffsets(
      page,
      'one two three <mark>four</mark> five six seven eight … nine ten eleven',
    );
    expect(page.slice(found!.start, found!.end)).toBe('one two three four five six seven eight');
  });

  it('grows only by whole words of the page', () => {
    const page = 'a lampshade one two three four five six seven eighty';
    const found = passageOffsets(page, 'lamp one two <mark>three</mark> four five six seven eight');
    expect(page.slice(found!.start, found!.end)).toBe('one two three four five six seven');
  });

  it('tries other runs of the snippet when the first is not in the page', () => {
    const snippet =
      '<mark>renamed</mark> since the index was built. This module offers classes representing filesystem paths';
    const found = passageOffsets(PAGE, snippet);
    expect(PAGE.slice(found!.start, found!.end)).toBe(
      'This module offers classes representing filesystem paths',
    );
  });

  it('is undefined when no run of the snippet is in the page', () => {
    expect(passageOffsets(PAGE, 'nothing of <mark>this</mark> is on the page at all')).toBeUndefined();
    expect(passageOffsets(PAGE, '…')).toBeUndefined();
  });
});
