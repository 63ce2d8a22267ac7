import { lightStem, WORD } from './light-stem.js';
import type { ParsedQuery, QueryClause } from './query-parser.js';

/** One document among the best lexical matches, as both stores hand it to {@link rerank}. */
export interface RankCandidate {
  /** The store's key of the document (row number). */
  key: number;
  url: string;
  title: string | null;
  /** Headings joined with newlines. */
  headings: string;
  /**
   * The body's start, at least its first {@link LEAD_CHARACTERS} characters (only those are read),
   * or '' when not read: the lead prior counts the query's words in it.
   */
  lead: string;
  /**
   * The page's summary as the store keeps it (`summary` column: {@link summaryOf} of the body's
   * first {@link OPENING_CHARACTERS} characters, written when the page is indexed), or ''.
   */
  summary: string;
  /** The store's field-weighted BM25 score (higher is better, > 0). */
  lexical: number;
  /** For each query clause (same order), whether the document holds it in any field. */
  held: readonly boolean[];
  /**
   * {@link candidateFields} of this candidate, when the store kept them from an earlier query
   * (they depend on the page alone); computed here when absent.
   */
  fields?: CandidateFields;
}

/** A field's text as {@link ClauseFinder.heldInField} reads it: lower-cased once. */
export interface FieldText {
  text: string;
  /** `text` lower-cased, when that is one code unit for one (not for `İ` or `Σ`); else null. */
  lower: string | null;
}

/** What re-ranking reads of a candidate's own fields, whatever the query (see {@link RankCandidate.fields}). */
export interface CandidateFields {
  /** Words of the title ({@link wordCount}). */
  titleWords: number;
  /** The title's {@link seriesTemplate}. */
  template: string | null;
  title: FieldText;
  headings: FieldText;
  /** The URL's path ({@link pathOf}). */
  path: FieldText;
  /** The lead's first {@link LEAD_CHARACTERS} characters. */
  lead: FieldText;
  summary: FieldText;
}

/** {@link CandidateFields} of a candidate's url, title, headings, lead and summary. */
export function candidateFields(
  candidate: Pick<RankCandidate, 'url' | 'title' | 'headings' | 'lead' | 'summary'>,
): CandidateFields {
  return {
    titleWords: wordCount(candidate.title ?? ''),
    template: seriesTemplate(candidate.title),
    title: fieldText(candidate.title ?? ''),
    headings: fieldText(candidate.headings),
    path: fieldText(pathOf(candidate.url)),
    lead: fieldText(candidate.lead.slice(0, LEAD_CHARACTERS)),
    summary: fieldText(candidate.summary),
  };
}

/** See {@link FieldText}. */
export function fieldText(text: string): FieldText {
  const lower = text.toLowerCase();
  // Lower-casing maps each character alone but for two: `İ` becomes two, and `Σ` depends on the
  // next letter. Without them, the lower-cased text holds each word's lower-cased form at the
  // word's place.
  return { text, lower: lower.length === text.length && !text.includes('Σ') ? lower : null };
}

/** How much each signal of {@link rerank} counts; the defaults are the best measured on the dev questions. */
export interface RerankWeights {
  /** Multiplies the score by `1 + coverage × share of clauses held`: pages with more of the words first. */
  coverage: number;
  /**
   * Adds `title × share of clauses in the title / (1 − b + b × title length / average title
   * length)` to the prior, with b = {@link RerankWeights.titleLengthNormalization}.
   */
  title: number;
  /** Adds `headings × share of clauses in the headings` to the prior. */
  headings: number;
  /** Adds `url × share of clauses in the URL path` (`/library/csv.html` holds "csv"). */
  url: number;
  /** Adds `lead × share of clauses in the body's first {@link LEAD_CHARACTERS} characters` (a page's first sentence says what it is about). */
  lead: number;
  /**
   * Adds `summary × share of clauses in the page's summary`, the first sentence of its first
   * paragraph of prose ({@link summaryOf}): what the page says it is about, also when the body
   * opens with a synopsis or a code block (a manual page's `DESCRIPTION`).
   */
  summary: number;
  /**
   * BM25's `b` for the title prior: how much a long title's match is discounted against the
   * average title of the re-ranked pages (0: not at all). A word of the query in a three-word
   * title says more about the page than the same word in a ten-word one.
   */
  titleLengthNormalization: number;
  /**
   * Pages of a series ({@link seriesTemplate}: titles alike but for their numbers, release notes
   * of every version) are scored × `factor` when at least `minPages` of the re-ranked pages share
   * the title (factor 1: off). One version's notes repeat the words of many questions, and many
   * versions compete for them, while the guide or reference page that answers the question is one.
   */
  series: { minPages: number; factor: number };
}

/** How much of the body's start counts as its lead (about its first sentence or two). */
export const LEAD_CHARACTERS = 200;

/**
 * How much of the body's start a page's summary is looked for in (when it is indexed): a manual
 * page's synopsis can run to a thousand characters before its first sentence of prose.
 */
export const OPENING_CHARACTERS = 2000;

export const DEFAULT_RERANK_WEIGHTS: RerankWeights = {
  coverage: 0,
  title: 2,
  headings: 0.5,
  url: 0.5,
  lead: 0.5,
  titleLengthNormalization: 0.75,
  summary: 0.25,
  series: { minPages: 5, factor: 0.5 },
};

/**
 * Orders the best lexical matches of a query by their lexical score times two
 * priors that long pages cannot earn by repeating common words: how many of
 * the query's clauses the page holds at all, and how many its title, headings,
 * URL path, lead and summary hold (a page about the thing usually names it there).
 * Stable: equal scores keep the candidates' order.
 */
export function rerank(
  candidates: readonly RankCandidate[],
  query: ParsedQuery,
  weights: RerankWeights = DEFAULT_RERANK_WEIGHTS,
): { candidate: RankCandidate; score: number }[] {
  const clauses = new ClauseFinder(query.clauses);
  const n = Math.max(1, clauses.count);
  const fields = candidates.map((candidate) => candidate.fields ?? candidateFields(candidate));
  // The average over the pages being re-ranked stands for the collection's: it needs no statistics
  // beyond the candidates, so both stores share this step.
  const titleLengths = fields.map((f) => f.titleWords);
  const averageTitle = Math.max(
    1,
    titleLengths.reduce((sum, l) => sum + l, 0) / Math.max(1, candidates.length),
  );
  const b = weights.titleLengthNormalization;
  // A series is recognised among the pages being re-ranked, as the title lengths are: both stores share this step.
  const templates = fields.map((f) => f.template);
  const seriesSizes = new Map<string, number>();
  for (const t of templates) if (t !== null) seriesSizes.set(t, (seriesSizes.get(t) ?? 0) + 1);
  const { minPages, factor } = weights.series;
  const scored = candidates.map((candidate, order) => {
    const heldShare = candidate.held.filter(Boolean).length / n;
    const titleNorm = 1 - b + (b * (titleLengths[order] ?? 0)) / averageTitle;
    const own = fields[order]!;
    const share = (field: FieldText) => clauses.heldInField(field) / n;
    const titleShare = share(own.title);
    const prior =
      1 +
      (titleShare === 0 ? 0 : (weights.title * titleShare) / titleNorm) +
      weights.headings * share(own.headings) +
      weights.url * share(own.path) +
      weights.lead * share(own.lead) +
      // Off, the summary adds 0 × its share: not looked for.
      (weights.summary > 0 ? weights.summary * share(own.summary) : 0);
    const template = templates[order] ?? null;
    const inSeries = template !== null && (seriesSizes.get(template) ?? 0) >= minPages;
    const score = candidate.lexical * (1 + weights.coverage * heldShare) * prior * (inSeries ? factor : 1);
    return { candidate, score, order };
  });
  scored.sort((a, b) => b.score - a.score || a.order - b.order);
  return scored.map(({ candidate, score }) => ({ candidate, score }));
}

/**
 * A title with each run of digits replaced by `#` (`Django 3.1.2 release notes` → `Django #.#.#
 * release notes`), or null for a title without digits: titles with the same template differ only
 * in their numbers (versions, parts). A site's version in every title (`Models — Django 3.2.25
 * documentation`) makes no series: the rest of the titles differ.
 */
export function seriesTemplate(title: string | null): string | null {
  if (title === null || !/\d/.test(title)) return null;
  return title.replace(/\d+/g, '#');
}

interface ClauseStems {
  stems: string[];
  /** Light stems of the words that stand for the clause's (one-word) clause: any of them holds it. */
  alternatives: string[];
  /** The last word is a prefix: any word starting with it counts. */
  prefix: boolean;
}

function clauseStems(clause: QueryClause): ClauseStems {
  return {
    stems: clause.words.map((w, i) => (clause.prefix && i === clause.words.length - 1 ? w : lightStem(w))),
    prefix: clause.prefix,
    alternatives: clause.alternatives.map(lightStem),
  };
}

/** The word ({@link WORD}) starting at `lastIndex`, if a word starts there. */
const WORD_STARTING = /(?<![\p{L}\p{N}])[\p{L}\p{N}]+/uy;

/**
 * How many of a query's clauses a text holds: a clause when one of its alternatives is among the
 * light stems of the text's words ({@link stemsOf}), or every one of its words is (a phrase is
 * approximated by its words; the prefix word: a stem starting with it).
 *
 * Re-ranking asks this of five fields of a hundred pages per query (about 5,000 words), so only
 * the words that can match are stemmed: {@link lightStem} only cuts a word's end, but for `-ies`
 * → `y`, so a stem without its final `y` starts the lower-cased word. Only the words starting
 * with a target's stem (a final `y` left off) are looked at, found with `indexOf` in the
 * lower-cased text. The answer is that of the stems of every word, in a fifth of the time
 * (rerank.test.ts compares them).
 */
export class ClauseFinder {
  /** How many clauses there are. */
  readonly count: number;
  private readonly clauses: readonly ClauseStems[];
  /** Every stem any clause asks for; `prefix`: a stem starting with it counts. */
  private readonly targets: { stem: string; prefix: boolean; start: string }[] = [];
  /** For each clause, its words' and its alternatives' indices in {@link targets}. */
  private readonly wordTargets: number[][] = [];
  private readonly alternativeTargets: number[][] = [];

  constructor(queryClauses: readonly QueryClause[]) {
    const clauses = queryClauses.map(clauseStems);
    this.clauses = clauses;
    this.count = clauses.length;
    const target = (stem: string, prefix: boolean) => {
      const start = stem.endsWith('y') ? stem.slice(0, -1) : stem;
      this.targets.push({ stem, prefix, start });
      return this.targets.length - 1;
    };
    for (const clause of clauses) {
      const last = clause.stems.length - 1;
      this.wordTargets.push(clause.stems.map((stem, i) => target(stem, clause.prefix && i === last)));
      this.alternativeTargets.push(clause.alternatives.map((stem) => target(stem, false)));
    }
  }

  /** How many of the clauses `text` holds. */
  heldIn(text: string): number {
    return this.heldInField(fieldText(text));
  }

  /** {@link heldIn} of a text lower-cased before ({@link fieldText}). */
  heldInField(field: FieldText): number {
    const found = new Array<boolean>(this.targets.length).fill(false);
    // Only the places where a target's start occurs in the lower-cased text are looked at; a text
    // whose lower case is not one code unit for one is split into words.
    if (field.lower !== null) this.findAt(field.text, field.lower, found);
    else this.findInWords(field.text, found);
    let held = 0;
    this.clauses.forEach((_, c) => {
      const alternatives = this.alternativeTargets[c]!;
      if (alternatives.some((t) => found[t]) || this.wordTargets[c]!.every((t) => found[t])) held += 1;
    });
    return held;
  }

  /** Marks the targets found in `text` by the occurrences of their starts in `lower`, its lower-cased form of the same length. */
  private findAt(text: string, lower: string, found: boolean[]): void {
    for (let t = 0; t < this.targets.length; t += 1) {
      const { stem: wanted, prefix, start } = this.targets[t]!;
      // `at < length`: an empty start (the stem `y`) is found at every place, the end again and again.
      for (
        let at = lower.indexOf(start);
        at >= 0 && at < lower.length && !found[t];
        at = lower.indexOf(start, at + 1)
      ) {
        WORD_STARTING.lastIndex = at;
        const word = WORD_STARTING.exec(text)?.[0];
        if (word === undefined) continue;
        const stem = lightStem(word);
        if (prefix ? stem.startsWith(wanted) : stem === wanted) found[t] = true;
      }
    }
  }

  /** Marks the targets found among the words of `text`, each word lower-cased alone. */
  private findInWords(text: string, found: boolean[]): void {
    for (const word of text.match(WORD) ?? []) {
      const lower = word.toLowerCase();
      let stem: string | undefined;
      for (let t = 0; t < this.targets.length; t += 1) {
        const { stem: wanted, prefix, start } = this.targets[t]!;
        if (found[t] || !lower.startsWith(start)) continue;
        stem ??= lightStem(word);
        if (prefix ? stem.startsWith(wanted) : stem === wanted) found[t] = true;
      }
    }
  }
}

/** How many words (letter and digit runs) a text holds. */
function wordCount(text: string): number {
  return text.match(WORD)?.length ?? 0;
}

/** The URL's path with its file extension dropped (`/library/csv.html` → `/library/csv`). */
function pathOf(url: string): string {
  try {
    return decodeURIComponent(new URL(url).pathname).replace(/\.[a-z0-9]{1,5}$/i, '');
  } catch {
    return '';
  }
}

/** A word of prose: letters, perhaps in brackets or followed by punctuation (not `--staged`, `<path>`, `a.py`). */
const PROSE_WORD = /^\(?[\p{L}'’-]*\p{L}[)\]]?[,.;:!?]?[)\]]?$/u;
/** At least this many words, most of them {@link PROSE_WORD}s, ending like a sentence: a paragraph of prose. */
const PROSE_MIN_WORDS = 5;
const PROSE_MIN_SHARE = 0.7;
const PARAGRAPH_BREAK = /\n\s*\n/;
const SENTENCE_END = /[.!?:]\s*$/;

/**
 * What a page says it is about: the first sentence of the first paragraph of
 * prose in `opening` (paragraphs are separated by blank lines; one of prose
 * has at least five words, most of them plain words, and ends like a
 * sentence). A title line, a synopsis or a code block before it is skipped,
 * so a manual page's summary is its description's first sentence ("Annotates
 * each line in the given file with information from the revision which last
 * modified the line."). Empty when `opening` holds no such paragraph.
 *
 * @example
 * ```ts
 * summaryOf('SYNOPSIS\n\ngit am [--signoff] [<mbox>…]\n\nDESCRIPTION\n\nSplits mail messages in a mailbox into patches. Then …');
 * // 'Splits mail messages in a mailbox into patches.'
 * ```
 */
export function summaryOf(opening: string): string {
  for (const paragraph of opening.split(PARAGRAPH_BREAK)) {
    // The cheap test first: most paragraphs that are not prose (a title line, options) end otherwise.
    if (!SENTENCE_END.test(paragraph)) continue;
    const words = paragraph.trim().split(/\s+/);
    if (words.length < PROSE_MIN_WORDS) continue;
    if (words.filter((w) => PROSE_WORD.test(w)).length < PROSE_MIN_SHARE * words.length) continue;
    const text = words.join(' ');
    const end = text.search(/[.!?](?: |$)/);
    return end < 0 ? text : text.slice(0, end + 1);
  }
  return '';
}
