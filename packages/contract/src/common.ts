import { z } from 'zod';
import { LIMITS } from './limits.js';

/** An RFC 3339 UTC timestamp, as the server writes it (`2026-11-22T10:15:30.123Z`). */
export const Timestamp = z.iso.datetime({ offset: false }).meta({
  description: 'RFC 3339 UTC timestamp',
  example: '2026-11-22T10:15:30.123Z',
});

/**
 * An absolute `http:` or `https:` URL, as every request field that names a page
 * must be. Relative URLs, other schemes and over-long URLs are refused.
 *
 * @example
 * ```ts
 * HttpUrl.parse('https://example.org/'); // ok
 * HttpUrl.safeParse('ftp://example.org/').success; // false
 * ```
 */
export const HttpUrl = z
  .string()
  .max(LIMITS.maxUrlLength, `URL is longer than ${LIMITS.maxUrlLength} characters`)
  .refine(isAbsoluteHttpUrl, { message: 'must be an absolute http or https URL' })
  .meta({ format: 'uri', example: 'https://example.org/' });

/**
 * True when `value` is written as an absolute `http:` or `https:` URL with a
 * host right after `//`, and parses as one. The text is checked, not only the
 * parse: WHATWG parsing repairs `http:///x` and `http:\\x` into `http://x/`
 * and drops tabs and line breaks anywhere, so a URL the caller did not write
 * would be fetched.
 */
export function isAbsoluteHttpUrl(value: string): boolean {
  if (!/^https?:\/\/[^/\\?#@\s]/i.test(value) || /[\t\n\r]/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** An opaque, URL-safe identifier with a type prefix (`run_…`, `res_…`, `doc_…`). */
export function prefixedId(prefix: string) {
  return z
    .string()
    .regex(new RegExp(`^${prefix}_[A-Za-z0-9_-]{1,64}$`), `must be an id starting with "${prefix}_"`);
}

/** A collection name: lower-case letters, digits, `-` and `_`, starting with a letter or digit. */
export const CollectionName = z
  .string()
  .max(LIMITS.maxCollectionNameLength)
  .regex(
    /^[a-z0-9][a-z0-9_-]*$/,
    'must be lower-case letters, digits, "-" or "_", starting with a letter or digit',
  );

/** The output formats of a crawled page. */
export const ContentFormat = z.enum(['markdown', 'html', 'text', 'links']);
export type ContentFormat = z.infer<typeof ContentFormat>;
