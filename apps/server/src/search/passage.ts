import { lightStem } from './light-stem.js';
import type { ParsedQuery } from './query-parser.js';

/** What a passage must hold: one of these words (by light stem), or a word starting with `prefix`. */
interface ClauseWords {
  stems: Set<string>;
  /** The text every matching word starts with (the shortest stem, a trailing `e`/`y` left off). */
  starts: string[];
  prefix: boolean;
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const WORD_AT = /[\p{L}\p{N}]+/uy;

function clauseWords(query: ParsedQuery): ClauseWords[] {
  return query.clauses
    .filter((c) => c.mode !== 'not')
    .map((c) => {
      const first = c.words[0] ?? '';
      const prefix = c.prefix && c.words.length === 1;
      const stems = prefix ? [first] : [lightStem(first), ...c.alternatives.map(lightStem)];
      // "dictionary" is written "dictionaries", "make" "making": the start shared by every form.
      const starts = stems.map((s) => (s.length > 3 && /[ey]$/.test(s) ? s.slice(0, -1) : s));
      return { stems: new Set(stems), starts: [...new Set(starts)], prefix };
    });
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
  const clauses = clauseWords(query);
  if (clauses.length < 2) return clauses.length === 0 ? 0 : 1;
  const lower = text.toLowerCase();
  const hits: { at: number; clause: number }[] = [];
  clauses.forEach((clause, index) => {
    for (const start of clause.starts) {
      for (let at = lower.indexOf(start); at >= 0; at = lower.indexOf(start, at + 1)) {
        if (at > 0 && LETTER_OR_DIGIT.test(lower[at - 1] ?? '')) continue;
        WORD_AT.lastIndex = at;
        const word = WORD_AT.exec(lower)?.[0] ?? '';
        if (clause.prefix ? word.startsWith(start) : clause.stems.has(lightStem(word)))
          hits.push({ at, clause: index });
      }
    }
  });
  hits.sort((a, b) => a.at - b.at);
  // Two pointers over the hits in text order: the most distinct clauses within `window` characters.
  const inWindow = new Array<number>(clauses.length).fill(0);
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
  return best / clauses.length;
}

/** How the passage step re-orders the head of a ranking (see {@link rescoreByPassage}). */
export interface PassageWeights {
  /** Multiplies a page's score by `1 + weight × best passage share`. 0 turns the step off. */
  weight: number;
  /** Length of a passage, in characters (about 100 words). */
  characters: number;
  /** How many of the best pages are re-scored (their bodies are read). */
  depth: number;
}

/** Chosen on the dev questions (the window on one half of them, checked on the other). */
export const DEFAULT_PASSAGE_WEIGHTS: PassageWeights = { weight: 1, characters: 600, depth: 20 };

/**
 * Re-scores the first {@link PassageWeights.depth} pages of a ranking by how
 * much of the query one passage of their body holds ({@link bestPassageShare}),
 * the best-passage evidence of passage retrieval: of two pages with the same
 * words, the one that holds them together answers the question. The rest
 * keep their order, scores capped so they stay under the re-scored head.
 * `bodies` holds the body of each page of the head (a missing one counts as
 * empty). Stable: equal scores keep the ranking's order.
 */
export function rescoreByPassage(
  ranked: readonly { seq: number; score: number }[],
  bodies: ReadonlyMap<number, string>,
  query: ParsedQuery,
  weights: PassageWeights = DEFAULT_PASSAGE_WEIGHTS,
): { seq: number; score: number }[] {
  if (weights.weight <= 0 || weights.depth <= 0) return [...ranked];
  const head = ranked.slice(0, weights.depth).map(({ seq, score }, order) => ({
    seq,
    order,
    score: score * (1 + weights.weight * bestPassageShare(bodies.get(seq) ?? '', query, weights.characters)),
  }));
  head.sort((a, b) => b.score - a.score || a.order - b.order);
  let floor = head.at(-1)?.score ?? Number.POSITIVE_INFINITY;
  const rest = ranked.slice(weights.depth).map(({ seq, score }) => {
    floor = Math.min(floor, score);
    return { seq, score: floor };
  });
  return [...head.map(({ seq, score }) => ({ seq, score })), ...rest];
}
