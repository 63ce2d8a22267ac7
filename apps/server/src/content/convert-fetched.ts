import type { FetchedPage } from '../fetch/types.js';
import { convertPage } from './convert-page.js';
import { convertText } from './convert-text.js';
import type { ConvertedPage } from './types.js';

/**
 * The part of a fetched page conversion needs (what crosses to a converter
 * thread), and whether the page's content is wanted as HTML (serialising it
 * costs a few percent of a page; a crawl that did not ask for it skips that).
 */
export type ConvertInput = Pick<FetchedPage, 'kind' | 'body' | 'finalUrl'> & { html?: boolean };

/** Converts a fetched page by its kind: HTML through main-content extraction, text and JSON as they are. */
export function convertFetched(page: ConvertInput): ConvertedPage {
  return page.kind === 'html'
    ? convertPage(page.body, page.finalUrl, { html: page.html !== false })
    : convertText(page.body, page.kind);
}
