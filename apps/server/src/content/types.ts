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
}
