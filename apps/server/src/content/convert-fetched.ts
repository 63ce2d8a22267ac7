import { decodeBody } from '../fetch/content-type.js';
import type { EncodedBody, FetchedPage } from '../fetch/types.js';
import { documentWordIndex } from '../search/word-index.js';
import { ownsItsBuffer } from '../thread-pool.js';
import { convertPage } from './convert-page.js';
import { convertText } from './convert-text.js';
import type { ConvertedPage } from './types.js';

/**
 * The part of a fetched page conversion needs (what crosses to a converter
 * thread), whether the page's content is wanted as HTML (serialising it
 * costs a few percent of a page; a crawl that did not ask for it skips that), and whether its text
 * is to be indexed for search (`words`: its word index is built with it). The body is the
 * decoded text, or the bytes as downloaded (`FetchedPage.takeEncodedBody`), decoded by the converter.
 */
export type ConvertInput = Pick<FetchedPage, 'kind' | 'finalUrl'> & {
  body: string | EncodedBody;
  html?: boolean;
  words?: boolean;
};

/**
 * Converts a fetched page by its kind: HTML through main-content extraction, text and JSON as they
 * are. With `words`, also the word index of its text as the search index stores it
 * (`documentWordIndex`): built here, on the converter's thread, rather than by the store on the
 * main thread (about 0.5 ms a documentation page), and moved back with the page.
 */
export function convertFetched(page: ConvertInput): ConvertedPage {
  const body =
    typeof page.body === 'string'
      ? page.body
      : decodeBody(page.body.bytes, page.body.headerCharset, page.kind);
  const converted =
    page.kind === 'html'
      ? convertPage(body, page.finalUrl, { html: page.html !== false })
      : convertText(body, page.kind);
  if (page.words) converted.words = documentWordIndex(converted.text);
  return converted;
}

/** The buffers of a converted page moved, not copied, to the thread that asked for it: its word index's. */
export function transferOfConverted(page: ConvertedPage): ArrayBuffer[] {
  const words = page.words;
  return words && ownsItsBuffer(words) ? [words.buffer as ArrayBuffer] : [];
}
