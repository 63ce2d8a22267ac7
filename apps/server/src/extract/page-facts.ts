/**
 * The facts read from one page, by source. Every source is turned into the same
 * shape, a {@link FactNode}: a typed bag of key/value entries whose values are
 * scalars or nested nodes. Keys keep their original spelling; matching
 * normalises them later, so one matcher serves JSON-LD, microdata, RDFa, meta
 * tags, Readability's reading and the page's visible structure alike. Each
 * entry carries the kind of evidence it is ({@link EvidenceKind}), which sets
 * how much a value read from it is trusted.
 */
import type { EvidenceKind } from './evidence.js';

/** Where a node came from. */
export type FactSource = 'jsonld' | 'microdata' | 'rdfa' | 'meta' | 'readability' | 'document' | 'structure';

/** A leaf value read from the page. */
export type FactScalar = string | number | boolean;

/** One key/value entry of a node. A repeated key (JSON-LD array, repeated itemprop, list) appears as several entries. */
export interface FactEntry {
  key: string;
  value: FactScalar | FactNode;
  /** The kind of evidence this entry is, when it differs from its node's (`og` and `twitter` in one meta node). */
  evidence?: EvidenceKind | undefined;
}

/** A bag of facts: a JSON-LD object, a microdata item, the page's meta tags, a table row… */
export interface FactNode {
  /** schema.org types (`Product`, `NewsArticle`), without the vocabulary URL; empty when untyped. */
  types: string[];
  source: FactSource;
  entries: FactEntry[];
  /** The kind of evidence of the node's entries (unless an entry says otherwise). */
  evidence: EvidenceKind;
}

/** Everything read from one page. */
export interface PageFacts {
  url: string;
  /** The page's language (`<html lang>`, `og:locale`, `content-language`), as a BCP 47 tag, when stated. */
  lang: string | undefined;
  /** Top-level JSON-LD items (arrays and `@graph` flattened, `@id` references resolved). */
  jsonld: FactNode[];
  /** Top-level microdata items (`itemscope` not nested in another item's property). */
  microdata: FactNode[];
  /** Top-level RDFa items (`typeof`/`vocab` with `property` attributes). */
  rdfa: FactNode[];
  /** Meta tags (OpenGraph, Twitter, Dublin Core, article:, product:, name=description…), keys without their prefix. */
  meta: FactNode;
  /** The document `<title>` read as a headline and a site name, and other statements of the site's name. */
  document: FactNode;
  /** Readability's reading of the page (title, byline, site name, excerpt, date, language), when made. */
  readability: FactNode | undefined;
  /** The visible structure: headings, bylines, times, "Label: value" pairs, definition lists, tables, lists, patterns. */
  structure: FactNode;
  /**
   * Tables with a header row: each row as a node keyed by the header cells; and definition lists under a
   * heading (`terms: true`), each term and its text as a row (`read-structure.ts`).
   */
  tables: { caption: string; headers: string[]; rows: FactNode[]; terms?: true }[];
  /** The page's visible text, one line per block, whitespace collapsed within lines (for query matching). */
  text: string;
}

/** A new, empty node. */
export function newNode(source: FactSource, evidence: EvidenceKind, types: string[] = []): FactNode {
  return { types, source, entries: [], evidence };
}

/** The values of `key` in a node (exact key). */
export function valuesOf(node: FactNode, key: string): (FactScalar | FactNode)[] {
  return node.entries.filter((e) => e.key === key).map((e) => e.value);
}

/** Type guard: a value is a nested node. */
export function isNode(value: unknown): value is FactNode {
  return typeof value === 'object' && value !== null && 'entries' in value && 'source' in value;
}
