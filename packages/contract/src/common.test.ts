import { describe, expect, it } from 'vitest';
import { isAbsoluteHttpUrl } from './common.js';

describe('isAbsoluteHttpUrl', () => {
  it('accepts absolute http and https URLs with a host', () => {
    for (const url of [
      'http://a.example/',
      'HTTPS://a.example:8443/x?y#z',
      'https://u:p@a.example/',
      'http://[::1]/',
    ])
      expect(isAbsoluteHttpUrl(url), url).toBe(true);
  });

  it('refuses URLs the WHATWG parser would repair into another host (http:///x became http://x/)', () => {
    for (const url of [
      'http:///x',
      'http:////x',
      'http:/x',
      'http:x',
      'http:\\\\x',
      'http://\\x',
      'http://@x',
      'http://?x',
      'http://#x',
      'http:// x',
      'http://a.exa\tmple/',
      'http://a.example/\n',
      ' http://a.example/',
    ])
      expect(isAbsoluteHttpUrl(url), JSON.stringify(url)).toBe(false);
  });

  it('refuses other schemes and relative URLs', () => {
    for (const url of ['ftp://a.example/', '/x', 'a.example', 'javascript:alert(1)', ''])
      expect(isAbsoluteHttpUrl(url), url).toBe(false);
  });
});
