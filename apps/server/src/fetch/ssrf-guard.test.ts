import { describe, expect, it } from 'vitest';
import { PageError } from '../errors.js';
import {
  assertAddressAllowed,
  checkHopUrl,
  classifyAddress,
  isAllowedClass,
  parseIPv4,
  parseIPv6,
} from './ssrf-guard.js';

// Pure tests: nothing here resolves or connects.

describe('classifyAddress', () => {
  const cases: [string, string][] = [
    // IPv4
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    ['93.184.216.34', 'public'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.254', 'private'],
    ['172.15.255.255', 'public'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.0.1', 'link-local'],
    ['169.254.169.254', 'cloud-metadata'],
    ['169.254.170.2', 'cloud-metadata'],
    ['168.63.129.16', 'cloud-metadata'],
    ['100.100.100.200', 'cloud-metadata'],
    ['100.64.0.1', 'shared-cgnat'],
    ['100.127.255.255', 'shared-cgnat'],
    ['100.63.255.255', 'public'],
    ['100.128.0.0', 'public'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.0.8', 'reserved'],
    ['192.0.2.1', 'documentation'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['198.18.0.1', 'documentation'],
    // IPv6
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['fec0::1', 'private'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['fd00:ec2::254', 'cloud-metadata'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['2606:4700:4700::1111', 'public'],
    ['2a00:1450:4001:80b::200e', 'public'],
    // IPv4-mapped and other IPv4-carrying forms are judged by the IPv4 address
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:169.254.169.254', 'cloud-metadata'],
    ['::ffff:8.8.8.8', 'public'],
    ['0:0:0:0:0:ffff:c0a8:0101', 'private'],
    ['64:ff9b::127.0.0.1', 'loopback'],
    ['64:ff9b::8.8.8.8', 'public'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:0808:0808::1', 'public'],
    ['::127.0.0.1', 'reserved'],
    ['::ffff:0:127.0.0.1', 'reserved'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'],
    ['100::1', 'reserved'],
    ['4000::1', 'reserved'],
    // not addresses
    ['example.com', 'invalid'],
    ['127.1', 'invalid'],
    ['0x7f.0.0.1', 'invalid'],
    ['2130706433', 'invalid'],
    ['', 'invalid'],
  ];
  it.each(cases)('%s is %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });
});

describe('parsers', () => {
  it('parses IPv4 to an unsigned number', () => {
    expect(parseIPv4('255.255.255.255')).toBe(0xffffffff);
    expect(parseIPv4('1.2.3.4')).toBe(0x01020304);
    expect(parseIPv4('1.2.3')).toBeNull();
    expect(parseIPv4('256.0.0.1')).toBeNull();
  });
  it('expands IPv6 with :: and IPv4 tails', () => {
    expect(parseIPv6('::1')).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIPv6('1::')).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
    expect(parseIPv6('::ffff:1.2.3.4')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304]);
    expect(parseIPv6('1:2:3:4:5:6:7:8')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(parseIPv6('1:2:3')).toBeNull();
    expect(parseIPv6('1::2::3')).toBeNull();
  });
});

describe('isAllowedClass', () => {
  it('allows only public addresses unless private networks are allowed', () => {
    expect(isAllowedClass('public', false)).toBe(true);
    expect(isAllowedClass('loopback', false)).toBe(false);
    expect(isAllowedClass('cloud-metadata', false)).toBe(false);
    expect(isAllowedClass('loopback', true)).toBe(true);
    expect(isAllowedClass('private', true)).toBe(true);
    expect(isAllowedClass('invalid', true)).toBe(false);
  });
});

describe('assertAddressAllowed', () => {
  it('throws unprocessable_url naming the address class', () => {
    let caught: unknown;
    try {
      assertAddressAllowed('internal.example', '10.0.0.5', false);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(PageError);
    expect((caught as PageError).code).toBe('unprocessable_url');
    expect((caught as PageError).message).toContain(
      'internal.example: it resolves to a private network address',
    );
    // What the server's DNS answered is not the caller's business (issue 16: it was `internal.example (10.0.0.5)`).
    expect((caught as PageError).message).not.toContain('10.0.0.5');
  });

  it('names a literal address as given', () => {
    expect(() => assertAddressAllowed('127.0.0.1', '127.0.0.1', false)).toThrow(
      /refused to connect to 127\.0\.0\.1: a loopback address/,
    );
  });
  it('passes public addresses, and anything when private networks are allowed', () => {
    expect(() => assertAddressAllowed('a', '8.8.4.4', false)).not.toThrow();
    expect(() => assertAddressAllowed('a', '127.0.0.1', true)).not.toThrow();
  });
});

describe('checkHopUrl (the check every redirect hop passes)', () => {
  const refused = (url: string, allowPrivate = false) => {
    try {
      checkHopUrl(url, allowPrivate);
      return null;
    } catch (error) {
      return error as PageError;
    }
  };

  it('accepts public http and https URLs', () => {
    expect(checkHopUrl('https://example.com/a?b=1', false).href).toBe('https://example.com/a?b=1');
    expect(checkHopUrl('http://93.184.216.34/', false).hostname).toBe('93.184.216.34');
  });

  it.each([
    ['ftp://example.com/file', 'scheme'],
    ['file:///etc/passwd', 'scheme'],
    ['javascript:alert(1)', 'scheme'],
    ['data:text/html,hi', 'scheme'],
    ['not a url', 'valid absolute URL'],
    ['http://user:pw@example.com/', 'credentials'],
    ['http://127.0.0.1:8080/', 'loopback'],
    ['http://[::1]/', 'loopback'],
    ['http://[::ffff:127.0.0.1]/', 'loopback'],
    ['http://0.0.0.0/', 'unspecified'],
    ['http://10.1.2.3/', 'private'],
    ['http://169.254.169.254/latest/meta-data/', 'metadata'],
    ['http://[fd00:ec2::254]/', 'metadata'],
    ['http://[fe80::1]/', 'link-local'],
    ['http://100.64.1.1/', 'carrier-grade NAT'],
    ['http://2130706433/', 'loopback'], // WHATWG URL turns this into 127.0.0.1
    ['http://0x7f.1/', 'loopback'],
    ['http://localhost:3000/', 'local or metadata host name'],
    ['http://api.localhost/', 'local or metadata host name'],
    ['http://metadata.google.internal/computeMetadata/v1/', 'local or metadata host name'],
  ])('refuses %s (%s)', (url, reason) => {
    const error = refused(url);
    expect(error).toBeInstanceOf(PageError);
    expect(error?.code).toBe('unprocessable_url');
    expect(error?.message).toContain(reason);
  });

  it('lets private hosts through when private networks are allowed, but never other schemes', () => {
    expect(refused('http://127.0.0.1:8080/', true)).toBeNull();
    expect(refused('http://localhost/', true)).toBeNull();
    expect(refused('ftp://127.0.0.1/', true)?.code).toBe('unprocessable_url');
  });

  it('checks each hop of a redirect chain on its own', () => {
    // A chain public → public → metadata: the hop check refuses the third hop.
    const chain = ['https://example.com/start', 'https://example.org/next', 'http://169.254.169.254/'];
    const verdicts = chain.map((url) => refused(url)?.code ?? 'ok');
    expect(verdicts).toEqual(['ok', 'ok', 'unprocessable_url']);
  });
});
