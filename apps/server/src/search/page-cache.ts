import type { MatchedDocument } from '../store/sqlite/search/index.js';
import type { Utf8Text } from './utf8-text.js';
import type { WordIndex } from './word-index.js';

/** What is kept of one page (see {@link PageCache}); a field not read yet is absent. */
interface PageEntry {
  document?: MatchedDocument;
  /** The body's word index (null: the page has none). */
  words?: WordIndex | null;
  /** The body as its UTF-8 bytes, with what was found in it (its word starts). */
  text?: Utf8Text;
  bytes: number;
}

/**
 * What a search reads of a page and derives from it, kept across searches for one version of the
 * database: its document row (what re-ranking and the answer read), its body's word index, and
 * its body's bytes with the word starts its snippets count (utf8-text.ts). A page's entry is the
 * row as the search would read it again, so long as nothing was written: {@link validate}, at
 * each search's start inside its snapshot, lets every entry go when the version it is given (the
 * writes through the connection and `PRAGMA data_version`, see `SearchDocumentStore.version`)
 * is not the one they were read at. Bounded by bytes, the least recently used page let go first;
 * a budget of 0 keeps nothing.
 */
export class PageCache {
  private readonly entries = new Map<number, PageEntry>();
  private held = 0;
  private version: string | null = null;

  constructor(private readonly budget: number) {}

  /** Bytes held (for tests and benches). */
  get bytes(): number {
    return this.held;
  }

  /** A search begins, of the database at `version`: entries read at another are let go. */
  validate(version: string): void {
    if (version === this.version) return;
    this.entries.clear();
    this.held = 0;
    this.version = version;
  }

  document(seq: number): MatchedDocument | undefined {
    return this.entry(seq)?.document;
  }

  /** The page's word index: undefined when not kept, null when it has none. */
  words(seq: number): WordIndex | null | undefined {
    return this.entry(seq)?.words;
  }

  text(seq: number): Utf8Text | undefined {
    return this.entry(seq)?.text;
  }

  keepDocument(seq: number, document: MatchedDocument): void {
    const size =
      2 *
        (document.id.length +
          document.url.length +
          (document.title?.length ?? 0) +
          document.headings.length +
          document.lead.length +
          document.summary.length +
          document.collection.length +
          document.indexed_at.length) +
      200;
    // Its fields as re-ranking reads them (lower-cased) are kept with it: about as much again.
    this.keep(seq, 'document', document, 2 * size);
  }

  keepWords(seq: number, words: WordIndex | null, size: number): void {
    this.keep(seq, 'words', words, size + 50);
  }

  /** `size`: the bytes, and what their word starts will take (about half as much again). */
  keepText(seq: number, text: Utf8Text, size: number): void {
    this.keep(seq, 'text', text, Math.ceil(size * 1.6) + 100);
  }

  private entry(seq: number): PageEntry | undefined {
    const entry = this.entries.get(seq);
    if (entry !== undefined) {
      // Most recently used last (a Map keeps insertion order).
      this.entries.delete(seq);
      this.entries.set(seq, entry);
    }
    return entry;
  }

  private keep<K extends 'document' | 'words' | 'text'>(
    seq: number,
    field: K,
    value: PageEntry[K],
    size: number,
  ): void {
    if (this.budget <= 0 || size > this.budget) return;
    let entry = this.entries.get(seq);
    if (entry === undefined) {
      entry = { bytes: 0 };
      this.entries.set(seq, entry);
    } else if (entry[field] !== undefined) return;
    entry[field] = value;
    entry.bytes += size;
    this.held += size;
    for (const [oldest, kept] of this.entries) {
      if (this.held <= this.budget) break;
      this.entries.delete(oldest);
      this.held -= kept.bytes;
    }
  }
}
