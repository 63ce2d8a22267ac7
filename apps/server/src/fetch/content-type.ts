import type { FetchedPage } from './types.js';

/** A parsed `Content-Type` header. */
export interface MediaType {
  /** Lower case, without parameters (`text/html`); empty when the header was missing. */
  type: string;
  /** The `charset` parameter, lower case, when present. */
  charset: string | null;
}

/** Parses a `Content-Type` header value. */
export function parseContentType(header: string | null | undefined): MediaType {
  if (!header) return { type: '', charset: null };
  const [head, ...params] = header.split(';');
  let charset: string | null = null;
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq === -1) continue;
    if (param.slice(0, eq).trim().toLowerCase() === 'charset') {
      charset =
        param
          .slice(eq + 1)
          .trim()
          .replace(/^["']|["']$/g, '')
          .toLowerCase() || null;
    }
  }
  return { type: (head ?? '').trim().toLowerCase(), charset };
}

const TEXT_TYPES = new Set([
  'text/plain',
  'text/markdown',
  'text/x-markdown',
  'text/csv',
  'text/xml',
  'application/xml',
]);

/**
 * How a media type is read: `html` to convert, `text`/`json` kept as text,
 * or null when the fetcher does not handle it (images, PDFs, binaries).
 */
export function kindOfMediaType(type: string): FetchedPage['kind'] | null {
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type === 'application/json' || type === 'text/json' || type.endsWith('+json')) return 'json';
  if (TEXT_TYPES.has(type)) return 'text';
  // RSS, Atom and other XML documents — but not SVG, which is an image.
  if (type.endsWith('+xml') && !type.startsWith('image/')) return 'text';
  return null;
}

/**
 * Guesses the kind of a body served without a `Content-Type`: HTML when it
 * starts like HTML, text when it has no NUL byte in its first 1 KiB, else null.
 */
export function sniffKind(head: Uint8Array): FetchedPage['kind'] | null {
  const sample = head.subarray(0, 1024);
  if (sample.includes(0)) return null;
  const start = Buffer.from(sample).toString('latin1').trimStart().slice(0, 64).toLowerCase();
  if (start.startsWith('<!doctype html') || start.startsWith('<html') || start.startsWith('<head'))
    return 'html';
  if (start.startsWith('{') || start.startsWith('[')) return 'json';
  return 'text';
}

/** The charset a BOM announces, if any. */
function charsetFromBom(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return null;
}

/**
 * The charset declared inside an HTML document's first 4 KiB
 * (`<meta charset>` or `<meta http-equiv="Content-Type" content="…charset=…">`),
 * or an XML declaration's `encoding`.
 */
export function charsetFromMarkup(bytes: Uint8Array): string | null {
  const head = Buffer.from(bytes.subarray(0, 4096)).toString('latin1');
  const meta = /<meta\s[^>]*?charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head);
  if (meta?.[1]) return meta[1].toLowerCase();
  const xml = /^\s*<\?xml\s[^>]*encoding\s*=\s*["']([\w.:-]+)["']/i.exec(head);
  if (xml?.[1]) return xml[1].toLowerCase();
  return null;
}

function decoderFor(label: string | null): TextDecoder | null {
  if (!label) return null;
  try {
    return new TextDecoder(label);
  } catch {
    return null; // unknown label: fall through to the next source
  }
}

/**
 * Decodes a body: BOM first, then the header's charset, then (for HTML and
 * XML) the charset declared in the markup, else UTF-8. Invalid bytes become
 * U+FFFD rather than failing the page.
 */
export function decodeBody(
  bytes: Uint8Array,
  headerCharset: string | null,
  kind: FetchedPage['kind'],
): string {
  const decoder =
    decoderFor(charsetFromBom(bytes)) ??
    decoderFor(headerCharset) ??
    (kind === 'json' ? null : decoderFor(charsetFromMarkup(bytes))) ??
    new TextDecoder('utf-8');
  return decoder.decode(bytes);
}
