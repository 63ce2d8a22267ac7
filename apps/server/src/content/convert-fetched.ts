import { decodeBody } from '../fetch/content-type.js';
import type { FetchedPage } from '../fetch/types.js';
import { convertPage } from './convert-page.js';
import { convertText } from './convert-text.js';
import type { ConvertedPage } from './types.js';

/**
 * The part of a fetched page conversion needs (what crosses to a converter
 * thread), and whether the page's content is wanted as HTML (serialising it
 * costs a few percent of a page; a crawl that did not ask for it skips that).
 */
export type ConvertInput = Pick<FetchedPage, 'kind' | 'finalUrl'> & { html?: boolean } & (
    | { body: string }
    /** The body undecoded (`FetchedPage.raw`): decoded here, on the converting thread. */
    | { bytes: Uint8Array; headerCharset: string | null }
  );

/** What crosses to a converter thread for a fetched page: its bytes when the fetcher kept them, else its text. */
export function convertInput(
  page: Pick<FetchedPage, 'kind' | 'finalUrl' | 'body' | 'raw'>,
  html: boolean,
): ConvertInput {
  const { kind, finalUrl, raw } = page;
  return raw
    ? { kind, finalUrl, html, bytes: raw.bytes, headerCharset: raw.headerCharset }
    : { kind, finalUrl, html, body: page.body };
}

/** Converts a fetched page by its kind: HTML through main-content extraction, text and JSON as they are. */
export function convertFetched(page: ConvertInput): ConvertedPage {
  const body = 'bytes' in page ? decodeBody(page.bytes, page.headerCharset, page.kind) : page.body;
  return page.kind === 'html'
    ? convertPage(body, page.finalUrl, { html: page.html !== false })
    : convertText(body, page.kind);
}
