import { decodeBody } from '../fetch/content-type.js';
import type { EncodedBody, FetchedPage } from '../fetch/types.js';
import { convertPage } from './convert-page.js';
import { convertText } from './convert-text.js';
import type { ConvertedPage } from './types.js';

/**
 * The part of a fetched page conversion needs (what crosses to a converter
 * thread), and whether the page's content is wanted as HTML (serialising it
 * costs a few percent of a page; a crawl that did not ask for it skips that). The body is the
 * decoded text, or the bytes as downloaded (`FetchedPage.takeEncodedBody`), decoded by the converter.
 */
export type ConvertInput = Pick<FetchedPage, 'kind' | 'finalUrl'> & {
  body: string | EncodedBody;
  html?: boolean;
};

/** Converts a fetched page by its kind: HTML through main-content extraction, text and JSON as they are. */
export function convertFetched(page: ConvertInput): ConvertedPage {
  const body =
    typeof page.body === 'string'
      ? page.body
      : decodeBody(page.body.bytes, page.body.headerCharset, page.kind);
  return page.kind === 'html'
    ? convertPage(body, page.finalUrl, { html: page.html !== false })
    : convertText(body, page.kind);
}
