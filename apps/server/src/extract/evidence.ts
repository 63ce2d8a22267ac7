/**
 * Kinds of evidence a value can come from, and how far each is trusted on
 * its own. A value's confidence for a property is the strength of its
 * evidence times how well the key it was found under names the property
 * (`names.ts`); values found by several independent kinds of evidence
 * combine (`combineConfidence`). A value is given only when its confidence
 * reaches {@link CONFIDENCE_FLOOR}.
 *
 * The strengths order the sources by how deliberately a page states a fact:
 * structured data written for machines (JSON-LD, microdata, RDFa) and the
 * meta tags sites maintain for link previews first; Readability's reading
 * (which weighs those same tags and the page's byline markup with rules
 * tuned on thousands of articles) as strong; the visible structure, which
 * must be interpreted, lower; patterns found in free text lowest.
 */
export const EVIDENCE_STRENGTH = {
  /** A JSON-LD item's property. */
  jsonld: 0.9,
  /** A microdata `itemprop`. */
  microdata: 0.85,
  /** An RDFa `property`. */
  rdfa: 0.8,
  /** OpenGraph and its namespaces (`og:`, `article:`, `product:`, `book:`, `profile:`), and `citation_*`. */
  og: 0.85,
  /** Dublin Core (`dc.*`, `dcterms.*`). */
  dc: 0.8,
  /** A plain `<meta name>` with a standard name (`author`, `description`, `keywords`, `application-name`). */
  'meta-name': 0.75,
  /** Twitter cards (`twitter:*`): mostly a repeat of OpenGraph, and `twitter:creator` is a handle. */
  twitter: 0.6,
  /** Readability's reading of an article (title, byline, site name, excerpt, published time). */
  readability: 0.85,
  /** The `<title>` as a whole: the page's declared title. */
  'title-whole': 0.6,
  /** The `<title>` with the site's name split off: the headline, if the split is right. */
  'title-head': 0.65,
  /** The site's name split off the `<title>`. */
  'title-site': 0.45,
  /** The name of a `WebSite` item. */
  'site-item': 0.85,
  /** The page's headline: the `<h1>` its stated title confirms, or its only `<h1>`. */
  headline: 0.7,
  /** An `<h1>` the page's title does not confirm (sites' logos are `<h1>`s too). */
  h1: 0.5,
  /** A byline in the article header, next to the headline (author class, `rel=author`, "By …"). */
  'byline-near': 0.6,
  /** A byline elsewhere on the page. */
  'byline-far': 0.4,
  /** A `<time>` element. */
  time: 0.7,
  /**
   * A manual page's defined parts (man2html, AsciiDoc, mandoc output): the
   * `name(section)` of its title and its NAME line `name - summary`.
   */
  manual: 0.8,
  /** A short section: a heading and the one short block under it ("Previous topic" / the topic). */
  section: 0.6,
  /**
   * A heading over its one code block and nothing else (a manual's SYNOPSIS, a usage): as strong as a
   * short section, and its value is code, whose lines are kept (`coerce.ts`).
   */
  code: 0.6,
  /**
   * A documented item (a function, a class) as the page states it: a heading or a definition term that is
   * its call signature (`fs.readFile(path[, options], callback)`, Sphinx's `json.dumps(obj, *, …)`), or a
   * heading naming it over a code block that is (`read-signatures.ts`). Reference pages name their items
   * no more plainly than that.
   */
  signature: 0.8,
  /** A definition list, a two-column table, a "Label: value" line, label/value elements, a `mailto:`/`tel:` link. */
  label: 0.7,
  /** A row of a table with a header row. */
  table: 0.7,
  /** An item of a list under a heading. */
  list: 0.7,
  /** A value found by pattern where it is hardly in doubt: a price right after the headline, the page's only e-mail address. */
  'pattern-sure': 0.6,
  /** A value found by pattern in the page's text (a price, an e-mail, a phone number, the first image). */
  pattern: 0.35,
} as const;

/** A kind of evidence. */
export type EvidenceKind = keyof typeof EVIDENCE_STRENGTH;

/**
 * The lowest confidence at which a value is given. Below it a nullable
 * property is `null`, a required one fails the result with an error naming
 * it, and an optional one is left out. One strong source (0.85 × an exact
 * name) clears it; one weak source (a lone `<title>` suffix, a byline far
 * from the headline) does not, unless another agrees.
 */
export const CONFIDENCE_FLOOR = 0.6;

/**
 * The confidence a value needs for a property Readability reads (an
 * author, a site's name, a publication date) when Readability read the page
 * and found none. It looks in the places sites state those (JSON-LD
 * articles, Dublin Core, OpenGraph, `meta name=author`, byline markup); its
 * silence is evidence too, which only strong agreement elsewhere outweighs.
 */
export const SILENCE_FLOOR = 0.9;

/**
 * Combines the confidences of independent findings of the same value: the
 * chance that not all of them are wrong (`1 − Π(1 − cᵢ)`).
 */
export function combineConfidence(confidences: number[]): number {
  let allWrong = 1;
  for (const c of confidences) allWrong *= 1 - Math.min(Math.max(c, 0), 1);
  return 1 - allWrong;
}
