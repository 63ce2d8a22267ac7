import { describe, expect, it } from 'vitest';
import { isTrackingParam, normalizeUrl } from './normalize-url.js';

describe('normalizeUrl', () => {
  it.each([
    ['HTTPS://Example.COM/Path', 'https://example.com/Path'],
    ['http://example.com:80/a', 'http://example.com/a'],
    ['https://example.com:443/a', 'https://example.com/a'],
    ['https://example.com:8443/a', 'https://example.com:8443/a'],
    ['http://example.com./a', 'http://example.com/a'],
    ['https://example.com/a#section', 'https://example.com/a'],
    ['https://example.com/a/./b/../c', 'https://example.com/a/c'],
    ['https://example.com/a/%2e%2E/c', 'https://example.com/c'],
    ['https://example.com/docs/index.html', 'https://example.com/docs'],
    ['https://example.com/docs/INDEX.HTM', 'https://example.com/docs'],
    ['https://example.com/index.php', 'https://example.com/'],
    ['https://example.com/index.php?page=2', 'https://example.com/?page=2'],
    ['https://example.com/myindex.html', 'https://example.com/myindex.html'],
    ['https://example.com/docs/', 'https://example.com/docs'],
    ['https://example.com/docs//', 'https://example.com/docs'],
    ['https://example.com', 'https://example.com/'],
    ['https://example.com/?', 'https://example.com/'],
    ['https://example.com/?&&', 'https://example.com/'],
    ['https://example.com/a?b=2&a=1&c=3', 'https://example.com/a?a=1&b=2&c=3'],
    ['https://example.com/a?tag=z&page=1&tag=a', 'https://example.com/a?page=1&tag=z&tag=a'],
    ['https://example.com/a?utm_source=x&UTM_Medium=y&id=7&gclid=1&fbclid=2', 'https://example.com/a?id=7'],
    ['https://example.com/a?mc_cid=1&mc_eid=2&_ga=3&ref=hn', 'https://example.com/a'],
    ['https://example.com/%7Euser/%41b%2fc', 'https://example.com/~user/Ab%2Fc'],
    ['https://example.com/a?q=%7e%20x', 'https://example.com/a?q=~%20x'],
    ['https://example.com/a?flag&b=1', 'https://example.com/a?b=1&flag'],
    ['https://user:pw@example.com/a', 'https://user:pw@example.com/a'],
    ['https://bücher.example/straße', 'https://xn--bcher-kva.example/stra%C3%9Fe'],
    ['  https://example.com/a  ', 'https://example.com/a'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeUrl(input)).toBe(expected);
  });

  it('makes equal keys for the same page written differently', () => {
    const variants = [
      'https://www.Example.com:443/docs/index.html?utm_campaign=spring#intro',
      'https://www.example.com/docs/',
      'https://www.example.com/docs',
      'https://www.example.com/./docs/x/..',
    ];
    expect(new Set(variants.map((v) => normalizeUrl(v))).size).toBe(1);
  });

  it('keeps query parameters that look like tracking ones but are not', () => {
    expect(normalizeUrl('https://e.com/?reference=1&utm=2&refs=3')).toBe(
      'https://e.com/?reference=1&refs=3&utm=2',
    );
  });

  it('is idempotent', () => {
    for (const input of [
      'HTTP://A.com:80/x/../y/index.html?b=%7e&a=1#f',
      'https://e.com/a%2f%3f?x=%2F',
      'https://e.com/caf%C3%A9/',
    ]) {
      const once = normalizeUrl(input);
      expect(normalizeUrl(once)).toBe(once);
    }
  });

  it('follows its options', () => {
    expect(
      normalizeUrl('https://e.com/a?utm_source=x&b=1&a=2', { stripTracking: false, sortQuery: false }),
    ).toBe('https://e.com/a?utm_source=x&b=1&a=2');
    expect(normalizeUrl('https://e.com/a?session=1&b=1', { extraTrackingParams: ['SESSION'] })).toBe(
      'https://e.com/a?b=1',
    );
    expect(normalizeUrl('https://e.com/a/index.html', { stripIndexFile: false })).toBe(
      'https://e.com/a/index.html',
    );
  });

  it('throws TypeError on what is not a URL, and leaves other schemes mostly alone', () => {
    expect(() => normalizeUrl('/relative/path')).toThrow(TypeError);
    expect(() => normalizeUrl('http://')).toThrow(TypeError);
    expect(normalizeUrl('mailto:Someone@Example.com#x')).toBe('mailto:Someone@Example.com');
  });
});

describe('isTrackingParam', () => {
  it('knows prefixes and names', () => {
    expect(isTrackingParam('utm_content')).toBe(true);
    expect(isTrackingParam('pk_campaign')).toBe(true);
    expect(isTrackingParam('msclkid')).toBe(true);
    expect(isTrackingParam('page')).toBe(false);
  });
});
