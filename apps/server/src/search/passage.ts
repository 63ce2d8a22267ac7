import { lightStem } from './light-stem.js';
import type { ParsedQuery } from './query-parser.js';
import { ScannedText, type TextScans } from './text-scans.js';

/** What a passage must hold: one of these words (by light stem), or a word starting with `prefix`. */
interface ClauseWords {
  stems: Set<string>;
  /** The text every matching word starts with (the shortest stem, a trailing `e`/`y` left off). */
  starts: string[];
  prefix: boolean;
}

function clauseWords(query: ParsedQuery): ClauseWords[] {
  return query.clauses
    .filter((c) => c.mode !== 'not')
    .map((c) => {
      const first = c.words[0] ?? '';
      const prefix = c.prefix && c.words.length === 1;
      const stems = prefix ? [first] : [lightStem(first), ...c.alternatives.map(lightStem)];
      // "dictionary" is written "dictionaries", "make" "making": the start shared by every form.
      const starts = stems.map(startOf);
      return { stems: new Set(stems), starts: [...new Set(starts)], prefix };
    });
}

/** The text every form of a word of light stem `stem` starts with: a trailing `e`/`y` left off. */
function startOf(stem: string): string {
  return stem.length > 3 && /[ey]$/.test(stem) ? stem.slice(0, -1) : stem;
}

/**
 * The largest share of the query's clauses (0..1) that one passage of
 * `window` characters of `text` holds: a page that answers the question in
 * one place holds its words together, a long page that mentions them far
 * apart does not. A clause is compared by its first word's light stem (or
 * its synonyms'), so "reading" holds "read". Found with `indexOf` on the
 * lower-cased text (no tokenizing of the whole page), each occurrence
 * checked at a word start and by its light stem.
 *
 * @example
 * ```ts
 * bestPassageShare('Sorting. … The sort key of a list …', parseSearchQuery('sort list key'), 300); // 1
 * ```
 */
export function bestPassageShare(text: string, query: ParsedQuery, window: number): number {
  return passageSignals(new ScannedText(text), clauseWords(query), window, 0).share;
}

/** The texts the passage step searches for the query's words (see {@link TextScans}). */
export function passageNeedles(query: ParsedQuery): string[] {
  return clauseWords(query).flatMap((clause) => clause.starts);
}

/**
 * The best-passage share and (with `proximityScale` > 0) the pair proximity
 * of one body, from one scan of it. With fewer than two clauses there is no
 * pair: the share is 1 when there is one clause, 0 when none, and the
 * proximity 0.
 */
function passageSignals(
  text: ScannedText,
  clauses: readonly ClauseWords[],
  window: number,
  proximityScale: number,
): { share: number; proximity: number } {
  if (clauses.length < 2) return { share: clauses.length === 0 ? 0 : 1, proximity: 0 };
  const hits = hitsOf(text, clauses);
  return {
    share: shareInWindow(hits, clauses.length, window),
    proximity: proximityScale > 0 ? proximityOf(hits, clauses.length, proximityScale) : 0,
  };
}

/** Where a clause's word occurs in a text (character offset). */
interface ClauseHit {
  at: number;
  clause: number;
}

/**
 * Every occurrence of the clauses' words in `text`, in text order: found with
 * `indexOf` on the lower-cased text at a word start ({@link ScannedText.wordStarts}),
 * each checked by its light stem.
 */
function hitsOf(text: ScannedText, clauses: readonly ClauseWords[]): ClauseHit[] {
  const hits: ClauseHit[] = [];
  clauses.forEach((clause, index) => {
    for (const start of clause.starts) {
      // Each distinct word tested once (from the word index, a word with every start of it).
      for (const { word, starts } of text.wordsAt(start)) {
        if (clause.prefix ? word.startsWith(start) : clause.stems.has(lightStem(word)))
          for (const at of starts) hits.push({ at, clause: index });
      }
    }
  });
  // Stable: the hits of one place keep the clauses' order (a start's words are at distinct places).
  return hits.sort((a, b) => a.at - b.at);
}

/** The most distinct clauses that one window of `window` characters holds, as a share of `count`. */
function shareInWindow(hits: readonly ClauseHit[], count: number, window: number): number {
  // Two pointers over the hits in text order: the most distinct clauses within `window` characters.
  const inWindow = new Array<number>(count).fill(0);
  let distinct = 0;
  let best = 0;
  let left = 0;
  for (const hit of hits) {
    if ((inWindow[hit.clause] ?? 0) === 0) distinct += 1;
    inWindow[hit.clause] = (inWindow[hit.clause] ?? 0) + 1;
    for (let first = hits[left]; first !== undefined && first.at <= hit.at - window; first = hits[left]) {
      inWindow[first.clause] = (inWindow[first.clause] ?? 1) - 1;
      if (inWindow[first.clause] === 0) distinct -= 1;
      left += 1;
    }
    best = Math.max(best, distinct);
  }
  return best / count;
}

/**
 * How close each two of the query's clauses come in `text` (0..1): for every
 * pair of clauses, `exp(−d / scale)` where `d` is the least distance in
 * characters between an occurrence of one and of the other (0 when either is
 * missing), averaged over the pairs. The minimum-distance proximity of Tao
 * and Zhai (SIGIR 2007), per pair: where the best-passage share counts how
 * many words one window holds, this also says how near they stand, and
 * rewards pages where only some of the words meet. 0 for fewer than two
 * clauses.
 *
 * @example
 * ```ts
 * closestPairsProximity('sort the list by key', parseSearchQuery('sort key'), 400); // exp(-16 / 400)
 * ```
 */
export function closestPairsProximity(text: string, query: ParsedQuery, scale: number): number {
  return passageSignals(new ScannedText(text), clauseWords(query), 0, scale).proximity;
}

function proximityOf(hits: readonly ClauseHit[], count: number, scale: number): number {
  // One pass in text order: the last position of each clause so far, and each pair's least gap.
  const last = new Array<number>(count).fill(Number.NaN);
  const gap: number[][] = Array.from({ length: count }, () =>
    new Array<number>(count).fill(Number.POSITIVE_INFINITY),
  );
  for (const hit of hits) {
    for (let other = 0; other < count; other++) {
      const at = last[other] ?? Number.NaN;
      if (other === hit.clause || Number.isNaN(at)) continue;
      const [i, j] = hit.clause < other ? [hit.clause, other] : [other, hit.clause];
      const row = gap[i]!;
      row[j] = Math.min(row[j]!, hit.at - at);
    }
    last[hit.clause] = hit.at;
  }
  let sum = 0;
  for (let i = 0; i < count; i++) for (let j = i + 1; j < count; j++) sum += Math.exp(-gap[i]![j]! / scale);
  return sum / ((count * (count - 1)) / 2);
}

/** How the passage step re-orders the head of a ranking (see {@link rescoreByPassage}). */
export interface PassageWeights {
  /** Multiplies a page's score by `1 + weight × best passage share`. 0 turns the step off. */
  weight: number;
  /** Length of a passage, in characters (about 100 words). */
  characters: number;
  /** How many of the best pages are re-scored (their bodies are read). */
  depth: number;
  /** Multiplies a page's score by `1 + proximity × {@link closestPairsProximity}` too. 0 turns it off. */
  proximity: number;
  /** The distance, in characters, at which a pair's proximity falls to 1/e. */
  proximityScale: number;
}

/**
 * Chosen on the dev questions (the window on one half of them, checked on the other). The
 * proximity's weight was 1 when two dev manuals were chosen on (flat from 0.6 to 1.5 there); with
 * a third (Octave, a Texinfo manual) it is 2.5, chosen leaving one manual out: the best weight on
 * any two of the three manuals (3 to 4, 2.5, 3) wins on the third, and 2.5 wins on every manual
 * and both halves of each (quality/search/README.md, the Octave dev set).
 */
export const DEFAULT_PASSAGE_WEIGHTS: PassageWeights = {
  weight: 1,
  characters: 600,
  depth: 20,
  proximity: 2.5,
  proximityScale: 400,
};

/**
 * Re-scores the first {@link PassageWeights.depth} pages of a ranking by how
 * much of the query one passage of their body holds ({@link bestPassageShare}),
 * the best-passage evidence of passage retrieval: of two pages with the same
 * words, the one that holds them together answers the question. The rest
 * keep their order, scores capped so they stay under the re-scored head.
 * `bodies` holds the body of each page of the head (a missing one counts as
 * empty, unless `scans` holds its word index: see {@link TextScans.index}). Stable: equal scores keep the ranking's order. `scans`: where the
 * bodies are lower-cased and searched, kept for the snippets that read them next.
 */
export function rescoreByPassage(
  ranked: readonly { seq: number; score: number }[],
  bodies: ReadonlyMap<number, string>,
  query: ParsedQuery,
  weights: PassageWeights = DEFAULT_PASSAGE_WEIGHTS,
  scans: TextScans | null = null,
): { seq: number; score: number }[] {
  if ((weights.weight <= 0 && weights.proximity <= 0) || weights.depth <= 0) return [...ranked];
  const clauses = clauseWords(query);
  const head = ranked.slice(0, weights.depth).map(({ seq, score }, order) => {
    const body = bodies.get(seq);
    const { share, proximity } = passageSignals(
      // A page whose body was not read: its word index's scans (see TextScans.index), else ''.
      scans === null ? new ScannedText(body ?? '') : scans.of(seq, body),
      clauses,
      weights.characters,
      weights.proximity > 0 ? weights.proximityScale : 0,
    );
    return {
      seq,
      order,
      score: score * (1 + weights.weight * share) * (1 + weights.proximity * proximity),
    };
  });
  head.sort((a, b) => b.score - a.score || a.order - b.order);
  let floor = head.at(-1)?.score ?? Number.POSITIVE_INFINITY;
  const rest = ranked.slice(weights.depth).map(({ seq, score }) => {
    floor = Math.min(floor, score);
    return { seq, score: floor };
  });
  return [...head.map(({ seq, score }) => ({ seq, score })), ...rest];
}
