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
      "tree, with **globbing**:\n\n    >>> sorted(Path('.').glob",
    );
  });

  it('tries other runs of the snippet when the first is not in the page', () => {
    const snippet =
      '<mark>renamed</mark> since the index was built. This module offers classes representing filesystem paths';
    const found = passageOffsets(PAGE, snippet);
    expect(PAGE.slice(found!.start, found!.end)).toBe('This module offers classes representing filesystem');
  });

  it('is undefined when no run of the snippet is in the page', () => {
    expect(passageOffsets(PAGE, 'nothing of <mark>this</mark> is on the page at all')).toBeUndefined();
    expect(passageOffsets(PAGE, '…')).toBeUndefined();
  });
});
