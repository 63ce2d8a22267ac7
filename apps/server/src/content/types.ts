import type { ArticleMetadata } from '../readability.js';

/** A page converted to every content format the API serves. */
export interface ConvertedPage {
  title: string | null;
  /** Main content as Markdown. */
  markdown: string;
  /** Main content as cleaned HTML. */
  html: string;
  /** Main content as plain text. */
  text: string;
  /** Absolute http(s) links found in the page, deduplicated, in document order. */
  links: string[];
  /** The page's `<link rel="canonical">`, absolute, when present. */
  canonicalUrl: string | null;
  /** Headings (h1–h3) text, for search weighting. */
  headings: string[];
  /**
   * Readability's metadata of the page (extraction weighs it as evidence);
   * null when Readability was not run (a page too large or deep for it, not
   * HTML) or found no article; absent when the content came from the light
   * tree (marked by the page or chosen by the picker: Readability did not run;
   * extraction reads it itself).
   */
  article?: ArticleMetadata | null;
  /**
   * The word index of `text` as the search index stores it (`documentWordIndex`; null when the text
   * cannot have one), when the page is to be indexed (`ConvertInput.words`).
   */
  words?: Uint8Array | null;
}
