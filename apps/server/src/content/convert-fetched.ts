import type { FetchedPage } from '../fetch/types.js';
import { convertPage } from './convert-page.js';
import { convertText } from './convert-text.js';
import type { ConvertedPage } from './types.js';

/** The part of a fetched page conversion needs (what crosses to a converter thread). */
export type ConvertInput = Pick<FetchedPage, 'kind' | 'body' | 'finalUrl'>;

/** Converts a fetched page by its kind: HTML through main-content extraction, text and JSON as they are. */
export function convertFetched(page: ConvertInput): ConvertedPage {
  return page.kind === 'html' ? convertPage(page.body, page.finalUrl) : convertText(page.body, page.kind);
}
