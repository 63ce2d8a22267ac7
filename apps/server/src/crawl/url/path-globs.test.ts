import { describe, expect, it } from 'vitest';
import { matchesPathGlobs, pathGlobsSearchSize } from './path-globs.js';

describe('matchesPathGlobs', () => {
  it('includes everything when include is empty', () => {
    expect(matchesPathGlobs('https://x.org/any/thing', [], [])).toBe(true);
    expect(matchesPathGlobs('https://x.org/', [], [])).toBe(true);
  });

  it('matches include globs on the path only', () => {
    const include = ['/blog/**'];
    expect(matchesPathGlobs('https://x.org/blog', include, [])).toBe(true);
    expect(matchesPathGlobs('https://x.org/blog/', include, [])).toBe(true);
    expect(matchesPathGlobs('https://x.org/blog/2024/post?x=/docs', include, [])).toBe(true);
    expect(matchesPathGlobs('https://x.org/blogger', include, [])).toBe(false);
    expect(matchesPathGlobs('https://blog.x.org/docs', include, [])).toBe(false);
  });

  it('distinguishes * (one segment) from ** (any depth)', () => {
    expect(matchesPathGlobs('https://x.org/docs/a', ['/docs/*'], [])).toBe(true);
    expect(matchesPathGlobs('https://x.org/docs/a/b', ['/docs/*'], [])).toBe(false);
    expect(matchesPathGlobs('https://x.org/files/a/b.pdf', ['**/*.pdf'], [])).toBe(true);
    expect(matchesPathGlobs('https://x.org/b.pdf', ['**/*.pdf'], [])).toBe(true);
  });

  it('lets exclude win over include', () => {
    expect(matchesPathGlobs('https://x.org/docs/private/k', ['/docs/**'], ['/docs/private/**'])).toBe(false);
    expect(matchesPathGlobs('https://x.org/docs/public', ['/docs/**'], ['/docs/private/**'])).toBe(true);
  });

  it('accepts patterns without a leading slash and decoded paths', () => {
    expect(matchesPathGlobs('https://x.org/docs/a', ['docs/**'], [])).toBe(true);
    expect(matchesPathGlobs('https://x.org/caf%C3%A9/menu', ['/café/**'], [])).toBe(true);
    expect(matchesPathGlobs('https://x.org/bad%E0%A4%A/x', ['/bad*/**'], [])).toBe(true);
  });

  it('matches the root only with /, * or **', () => {
    expect(matchesPathGlobs('https://x.org/', ['/'], [])).toBe(true);
    expect(matchesPathGlobs('https://x.org/', ['**'], [])).toBe(true);
    expect(matchesPathGlobs('https://x.org/', ['/docs/**'], [])).toBe(false);
    expect(matchesPathGlobs('https://x.org/', [], ['**'])).toBe(false);
  });

  it('matches a glob made to backtrack against a path made for it in milliseconds', () => {
    // With picomatch's RegExp this one check took 6.6 s (each star one more power of the path's length).
    const started = performance.now();
    expect(matchesPathGlobs(`https://x.org/${'a'.repeat(40)}`, [], [`${'*a'.repeat(10)}*b`])).toBe(true);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('measures how much glob a run holds past the plain starts', () => {
    expect(pathGlobsSearchSize(['/docs/api/reference/**'])).toBeLessThan(5);
    expect(pathGlobsSearchSize([`${'*a'.repeat(254)}*b`])).toBeGreaterThan(700);
  });

  it('matches nothing for an invalid URL', () => {
    expect(matchesPathGlobs('::', [], [])).toBe(false);
  });
});
