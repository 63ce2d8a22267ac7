const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/**
 * How many characters of a page's body the search reads to find the query's words in it (its
 * best passage and its snippet), as Elasticsearch analyses at most 1,000,000 characters of a field
 * to highlight it (`index.highlight.max_analyzed_offset`): a page's words past that are still
 * indexed, and match, but are neither looked for in a passage nor marked. Lower-casing and searching
 * a 9 MB body held the main thread ~0.2 s a search; the largest pages of the manuals the ranking was
 * chosen on are well under it. The stores read one character more, so that {@link isCut} knows.
 */
export const ANALYZED_CHARACTERS = 1_000_000;

/** The part of `text` the search analyses: its first {@link ANALYZED_CHARACTERS} characters. */
export function analyzedPart(text: string): string {
  return text.length > ANALYZED_CHARACTERS ? text.slice(0, ANALYZED_CHARACTERS) : text;
}

/** Whether `text` goes on past what the search analyses of it ({@link ANALYZED_CHARACTERS}). */
export function isCut(text: string): boolean {
  return text.length > ANALYZED_CHARACTERS;
}

/**
 * Where `needle` occurs in `lower` at a word start (no letter or digit before it), in text order:
 * every occurrence found with `indexOf`, overlapping ones too.
 */
export function wordStartsIn(lower: string, needle: string): number[] {
  const starts: number[] = [];
  for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, at + 1)) {
    if (at > 0 && LETTER_OR_DIGIT.test(lower[at - 1] ?? '')) continue;
    starts.push(at);
  }
  return starts;
}

/**
 * One text lower-cased (`toLowerCase`) once, and the word starts of each needle asked of it found
 * once ({@link wordStartsIn}). `text` is the part of the text given (`source`) that the search
 * analyses ({@link analyzedPart}). A needle with a shorter needle of the query as its prefix (its
 * root) is not searched for again: its starts are the root's where the lower-cased text goes on
 * with it, the same positions in the same order.
 */
export class ScannedText {
  /** The text as given. */
  readonly source: string;
  /** What is scanned of it: its first {@link ANALYZED_CHARACTERS} characters. */
  readonly text: string;
  private lowerText: string | undefined;
  private readonly found = new Map<string, readonly number[]>();
  private readonly roots: ReadonlyMap<string, string>;

  constructor(text: string, roots: ReadonlyMap<string, string> = new Map()) {
    this.source = text;
    this.text = analyzedPart(text);
    this.roots = roots;
  }

  /** `text.toLowerCase()` (which may be longer than the text: `İ` becomes two characters). */
  get lower(): string {
    this.lowerText ??= this.text.toLowerCase();
    return this.lowerText;
  }

  /** {@link wordStartsIn} of the lower-cased text. */
  wordStarts(needle: string): readonly number[] {
    const known = this.found.get(needle);
    if (known !== undefined) return known;
    const root = this.roots.get(needle) ?? needle;
    const lower = this.lower;
    const starts =
      root === needle
        ? wordStartsIn(lower, needle)
        : this.wordStarts(root).filter((at) => lower.startsWith(needle, at));
    this.found.set(needle, starts);
    return starts;
  }
}

/**
 * The texts of one query's pages, each lower-cased and searched once however many steps read it:
 * the passage step and the snippets both look for the query's words in the same bodies (a page's
 * body is lower-cased and searched twice otherwise, for the snippet's words and the passage's).
 * `needles`: every needle the steps will ask (the roots are chosen among them); a text is known by
 * its page's row.
 *
 * @example
 * ```ts
 * const scans = new TextScans(['sort', 'sorted']);
 * scans.of(7, 'Sorted, sort.').wordStarts('sorted'); // [0], from the scan for 'sort'
 * ```
 */
export class TextScans {
  private readonly roots = new Map<string, string>();
  private readonly texts = new Map<number, ScannedText>();

  constructor(needles: Iterable<string>) {
    // Shortest first: a needle's root is the first (shortest) needle it starts with.
    const sorted = [...new Set(needles)].filter((n) => n !== '').sort((a, b) => a.length - b.length);
    for (const needle of sorted) {
      const root = sorted.find((other) => needle.startsWith(other)) ?? needle;
      if (root !== needle) this.roots.set(needle, root);
    }
  }

  /** The scans of page `key`'s text `text` (a new one when the page's text is another). */
  of(key: number, text: string): ScannedText {
    const known = this.texts.get(key);
    if (known !== undefined && known.source === text) return known;
    const scanned = new ScannedText(text, this.roots);
    this.texts.set(key, scanned);
    return scanned;
  }
}
