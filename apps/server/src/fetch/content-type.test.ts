import { describe, expect, it } from 'vitest';
import {
  charsetFromMarkup,
  decodeBody,
  kindOfMediaType,
  parseContentType,
  sniffKind,
} from './content-type.js';

describe('parseContentType', () => {
  it('splits type and charset', () => {
    expect(parseContentType('Text/HTML; Charset="ISO-8859-1"')).toEqual({
      type: 'text/html',
      charset: 'iso-8859-1',
    });
    expect(parseContentType('application/json')).toEqual({ type: 'application/json', charset: null });
    expect(parseContentType(null)).toEqual({ type: '', charset: null });
  });
});

describe('kindOfMediaType', () => {
  it.each([
    ['text/html', 'html'],
    ['application/xhtml+xml', 'html'],
    ['text/plain', 'text'],
    ['text/markdown', 'text'],
    ['text/csv', 'text'],
    ['text/xml', 'text'],
    ['application/xml', 'text'],
    ['application/rss+xml', 'text'],
    ['application/json', 'json'],
    ['application/ld+json', 'json'],
    ['image/png', null],
    ['image/svg+xml', null],
    ['application/pdf', null],
    ['application/octet-stream', null],
  ])('%s → %s', (type, kind) => {
    expect(kindOfMediaType(type)).toBe(kind);
  });
});

describe('sniffKind', () => {
  const bytes = (s: string) => new TextEncoder().encode(s);
  it('recognises unlabelled HTML, JSON, text and binary', () => {
    expect(sniffKind(bytes('  <!DOCTYPE html><html>'))).toBe('html');
    expect(sniffKind(bytes('{"a":1}'))).toBe('json');
    expect(sniffKind(bytes('hello'))).toBe('text');
    expect(sniffKind(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0]))).toBeNull();
  });
});

describe('decodeBody', () => {
  const latin1 = Buffer.from('<p>café</p>', 'latin1');
  it('uses the header charset', () => {
    expect(decodeBody(latin1, 'iso-8859-1', 'html')).toBe('<p>café</p>');
  });
  it('falls back to <meta charset> for HTML', () => {
    const html = Buffer.concat([Buffer.from('<meta charset="windows-1252">'), latin1]);
    expect(charsetFromMarkup(html)).toBe('windows-1252');
    expect(decodeBody(html, null, 'html')).toContain('café');
  });
  it('reads the http-equiv form', () => {
    const html = Buffer.from('<meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1">');
    expect(charsetFromMarkup(html)).toBe('iso-8859-1');
  });
  it('defaults to UTF-8 and ignores unknown labels', () => {
    expect(decodeBody(Buffer.from('naïve ✓'), null, 'text')).toBe('naïve ✓');
    expect(decodeBody(Buffer.from('naïve'), 'x-no-such-charset', 'text')).toBe('naïve');
  });
  it('lets a BOM win over the header', () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hi', 'utf16le')]);
    expect(decodeBody(utf16, 'utf-8', 'text')).toBe('hi');
  });
});
