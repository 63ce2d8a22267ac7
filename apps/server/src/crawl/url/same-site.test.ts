import { describe, expect, it } from 'vitest';
import { isSameSite } from './same-site.js';

describe('isSameSite', () => {
  it.each([
    ['https://example.org/a', 'https://example.org/b', true],
    ['https://www.example.org/a', 'https://example.org/b', true],
    ['https://EXAMPLE.org/a', 'https://www.example.ORG./b', true],
    ['http://example.org/', 'https://example.org/', true],
    ['http://example.org:80/', 'http://example.org/', true],
    ['https://docs.example.org/', 'https://example.org/', false],
    ['https://www2.example.org/', 'https://example.org/', false],
    ['https://a.github.io/', 'https://b.github.io/', false],
    ['https://example.org.evil.test/', 'https://example.org/', false],
    ['http://127.0.0.1:8080/a', 'http://127.0.0.1:8080/b', true],
    ['http://127.0.0.1:8080/a', 'http://127.0.0.1:9090/a', false],
    ['http://127.0.0.1:8080/a', 'http://127.0.0.1/a', false],
    ['https://www./', 'https://www./', true],
    ['not a url', 'not a url', false],
    ['ftp://example.org/', 'ftp://example.org/', false],
  ])('%s vs %s → %s', (a, b, expected) => {
    expect(isSameSite(a, b)).toBe(expected);
    expect(isSameSite(b, a)).toBe(expected);
  });
});
