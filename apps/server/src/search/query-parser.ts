import { STOP_WORDS } from './stop-words.js';
import { synonymsOf } from './synonyms.js';

/** One part of a parsed query: a word or a phrase, rendered as a safe FTS5 string. */
export interface QueryClause {
  /** The FTS5 expression: a double-quoted string, optionally followed by `*` for prefix matching. */
  expression: string;
  /** The words of the clause, lower-cased. */
  words: string[];
  /** True for a quoted phrase or a word that held punctuation (`node.js` → "node js"). */
  phrase: boolean;
  prefix: boolean;
  /** An unquoted stop word (`the`, `how`, `don't`): dropped while a content word remains. */
  stopWord: boolean;
  /**
   * `should`: ranks documents that hold it higher; `must`: documents must hold it (`+word`, or a
   * quoted phrase); `not`: documents must not hold it (`-word`, `-"a phrase"`).
   */
  mode: ClauseMode;
  /**
   * Other words that stand for the clause's word (a `should` word's synonyms, see
   * synonyms.ts): a document holding one of them holds the clause. Empty for phrases
   * and for `must` / `not` clauses, which mean exactly what was typed.
   */
  alternatives: string[];
  /**
   * The stop words the question held right before this clause and that were dropped (`of` before
   * `results` in "list of results"): the neighbour phrase as typed keeps them.
   */
  stopWordsBefore: string[];
}

/** How a clause constrains the matching documents (see {@link QueryClause.mode}). */
export type ClauseMode = 'should' | 'must' | 'not';

/** A user query turned into FTS5 clauses; empty when it held no searchable word. */
export interface ParsedQuery {
  clauses: QueryClause[];
  /** Whether {@link neighbourPhrases} adds the phrases as typed (see {@link QueryParseOptions.typedPhrases}). */
  typedPhrases?: boolean;
}

/** How {@link parseSearchQuery} reads a query. */
export interface QueryParseOptions {
  /** Give the last bare word prefix matching (search-as-you-type). Default true. */
  prefixLastWord?: boolean;
  /** Drop stop words outside phrases when a content word remains. Default true. */
  dropStopWords?: boolean;
  /** Let a `should` word also match its synonyms (synonyms.ts). Default true. */
  expandSynonyms?: boolean;
  /**
   * Score two neighbouring words also as the phrase typed, stop words between them included
   * ("list of results"), beside the pair without them (see {@link neighbourPhrases}). Default true.
   */
  typedPhrases?: boolean;
}

/** At most this many clauses are kept: a 1,000-character query must not become a 300-way join. */
export const MAX_QUERY_CLAUSES = 24;
/** Implicit prefix matching needs this many characters, so "a" does not expand to half the vocabulary. */
const MIN_IMPLICIT_PREFIX = 3;
const MIN_EXPLICIT_PREFIX = 2;
// Token characters as FTS5's unicode61 sees them (letters, numbers, marks, private use); the rest separates.
const WORD = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;
const HAS_LETTER_OR_NUMBER = /[\p{L}\p{N}]/u;

/**
 * Turns free user text into FTS5 clauses that cannot be FTS5 syntax: every
 * word is emitted inside double quotes and contains only letters, digits and
 * marks, so no input can make SQLite raise a syntax error.
 *
 * - `"exact words"` → a phrase; a `*` right after the closing quote makes its last word a prefix.
 * - `word*` → prefix match; the last bare word of the query also gets one.
 * - a chunk with inner punctuation (`node.js`, `e-mail`) → a phrase of its parts.
 * - stop words outside phrases are dropped while a content word remains.
 *
 * @example
 * ```ts
 * parseSearchQuery('configure "rate limit" retr').clauses.map((c) => c.expression);
 * // ['"configure"', '"rate limit"', '"retr"*']
 * ```
 */
export function parseSearchQuery(text: string, options: QueryParseOptions = {}): ParsedQuery {
  const prefixLastWord = options.prefixLastWord ?? true;
  const dropStopWords = options.dropStopWords ?? true;
  const expandSynonyms = options.expandSynonyms ?? true;
  const typedPhrases = options.typedPhrases ?? true;
  const normalized = text.normalize('NFKC');
  const clauses: QueryClause[] = [];

  // Quoted phrases first; an unbalanced quote is read as ordinary text.
  const pieces = normalized.split('"');
  for (let i = 0; i < pieces.length; i += 1) {
    const piece = pieces[i] ?? '';
    const isQuoted = i % 2 === 1 && i < pieces.length - 1;
    if (isQuoted) {
      const words = wordsOf(piece);
      const next = pieces[i + 1] ?? '';
      const prefix = next.startsWith('*') && (words.at(-1)?.length ?? 0) >= MIN_EXPLICIT_PREFIX;
      // A '-' right before the opening quote excludes the phrase; otherwise a quoted phrase is required.
      const before = pieces[i - 1] ?? '';
      const negated = /(^|\s)-$/.test(before);
      if (words.length > 0)
        clauses.push(clause(words, words.length > 1, prefix, false, negated ? 'not' : 'must'));
      if (prefix) pieces[i + 1] = next.slice(1);
      continue;
    }
    for (const chunk of piece.split(/\s+/)) {
      const words = wordsOf(chunk);
      if (words.length === 0) continue;
      const prefix = chunk.endsWith('*') && (words.at(-1)?.length ?? 0) >= MIN_EXPLICIT_PREFIX;
      const mode: ClauseMode = /^\+[\p{L}\p{N}]/u.test(chunk)
        ? 'must'
        : /^-[\p{L}\p{N}]/u.test(chunk)
          ? 'not'
          : 'should';
      const bare = chunk.replace(/\u2019/g, "'").replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
      const stopWord = !prefix && mode === 'should' && STOP_WORDS.has(bare.toLowerCase());
      clauses.push(clause(words, words.length > 1, prefix, stopWord, mode));
    }
  }

  let kept = clauses;
  if (dropStopWords) {
    const content: QueryClause[] = [];
    let dropped: string[] = [];
    for (const c of clauses) {
      if (c.stopWord) dropped.push(...c.words);
      else {
        content.push({ ...c, stopWordsBefore: dropped });
        dropped = [];
      }
    }
    if (content.length > 0) kept = content;
  }
  kept = dedupe(kept).slice(0, MAX_QUERY_CLAUSES);

  const last = kept.at(-1);
  if (prefixLastWord && last !== undefined && !last.phrase && !last.prefix && last.mode !== 'not') {
    const word = last.words[0] ?? '';
    if ([...word].length >= MIN_IMPLICIT_PREFIX && !/^\p{N}+$/u.test(word)) {
      kept[kept.length - 1] = {
        ...clause(last.words, false, true, false, last.mode),
        stopWordsBefore: last.stopWordsBefore,
      };
    }
  }
  if (expandSynonyms) kept = kept.map(withSynonyms);
  return { clauses: kept, typedPhrases };
}

/** The clauses that select and rank documents (every clause but the `not` ones). */
export function positiveClauses(query: ParsedQuery): QueryClause[] {
  return query.clauses.filter((c) => c.mode !== 'not');
}

/**
 * Each two neighbouring words of the query (`should` words, stop words
 * left out) as a phrase: pages where they stand together, as in the question,
 * score higher than pages that hold them apart ("environment variable").
 * When the question held stop words between the two, the phrase as typed,
 * with them, is scored too ("list of results", "count how many", "delete a
 * branch"): documentation writes such phrases with their function words,
 * which the pair without them ("list results") does not match.
 */
export function neighbourPhrases(query: ParsedQuery): QueryClause[] {
  const words = query.clauses.filter((c) => c.mode === 'should' && !c.phrase);
  const pairs: QueryClause[] = [];
  for (let i = 1; i < words.length; i += 1) {
    const [before, word] = [words[i - 1]!, words[i]!];
    pairs.push(clause([before.words[0]!, word.words[0]!], true, false, false, 'should'));
    // Only when nothing but dropped stop words stood between them in the question.
    const next = query.clauses.indexOf(before) + 1 === query.clauses.indexOf(word);
    if (query.typedPhrases === true && next && word.stopWordsBefore.length > 0)
      pairs.push(
        clause([before.words[0]!, ...word.stopWordsBefore, word.words[0]!], true, false, false, 'should'),
      );
  }
  return pairs;
}

/**
 * Whether a phrase of the query (a quoted FTS5 string: a clause's word or prefix, one of its
 * synonyms, a phrase) is scored in the ranking expressions; see {@link matchOf}.
 */
export type ScoredPhrase = (phrase: string) => boolean;

/**
 * The phrases of a clause's FTS5 expression, each a quoted string of its own: the clause's own
 * expression and, for a word with synonyms, each synonym (bm25() gives each its own idf).
 */
export function phrasesOf(clause: QueryClause): string[] {
  if (clause.alternatives.length === 0) return [clause.expression];
  return [
    `"${clause.words.join(' ')}"${clause.prefix ? '*' : ''}`,
    ...clause.alternatives.map((w) => `"${w}"`),
  ];
}

/**
 * The FTS5 expression of the documents a query finds: any of its words (OR),
 * all of its `must` clauses, none of its `not` clauses. Null when nothing
 * positive is left (a query of exclusions only finds nothing). Every clause,
 * and every pair of neighbouring words as a phrase, stays in the expression
 * so FTS5's bm25() scores it. With `allWords`, every positive clause is
 * required (the documents holding all of the words).
 *
 * `scored` leaves phrases out of the scoring part (the OR of every clause and neighbour phrase)
 * while a positive clause keeps one there; the `must` part (every clause with `allWords`) keeps
 * them all. With `allWords` the documents are the same (each holds every clause, so any clause
 * left in the OR); without it, those holding only left-out phrases are no longer found (see
 * SqliteSearchIndex, which leaves out the phrases whose bm25() idf is FTS5's floor).
 */
export function matchOf(
  query: ParsedQuery,
  allWords = false,
  scored: ScoredPhrase = () => true,
): string | null {
  const positiveClauseList = positiveClauses(query);
  const positive = positiveClauseList.map((c) => c.expression);
  if (positive.length === 0) return null;
  const must = allWords ? positive : query.clauses.filter((c) => c.mode === 'must').map((c) => c.expression);
  const kept = positiveClauseList.flatMap((c) => {
    const phrases = phrasesOf(c).filter((phrase) => scored(phrase));
    if (phrases.length === 0) return [];
    if (phrases.length === phrasesOf(c).length) return [c.expression];
    return [phrases.length === 1 ? phrases[0]! : `(${phrases.join(' OR ')})`];
  });
  const scoredPart = [
    ...(kept.length > 0 ? kept : positive),
    ...neighbourPhrases(query).map((c) => c.expression),
  ];
  const any = scoredPart.length === 1 ? scoredPart[0]! : `(${scoredPart.join(' OR ')})`;
  const selected = must.length === 0 ? any : `${must.join(' AND ')} AND ${any}`;
  const not = query.clauses.filter((c) => c.mode === 'not').map((c) => c.expression);
  return not.length === 0 ? selected : `(${selected}) NOT (${not.join(' OR ')})`;
}

/**
 * The FTS5 expression of the documents {@link matchOf}`(query, true)` finds (every positive clause,
 * no `not` clause), without its scoring part: a document holding every clause holds one of the
 * any-word part's clauses too, so the rows are the same and only the walk is cheaper (no
 * neighbour phrase is looked for). For counting them, not for bm25() (its phrases differ). Null
 * when nothing positive is left.
 *
 * @example
 * ```ts
 * allClausesOf(parseSearchQuery('retry limit -cache')); // '("retry" AND "limit"*) NOT ("cache")'
 * ```
 */
export function allClausesOf(query: ParsedQuery): string | null {
  const positive = positiveClauses(query).map((c) => c.expression);
  if (positive.length === 0) return null;
  const all = positive.join(' AND ');
  const not = query.clauses.filter((c) => c.mode === 'not').map((c) => c.expression);
  return not.length === 0 ? all : `(${all}) NOT (${not.join(' OR ')})`;
}

/** An FTS5 expression to rank with and the factor its bm25() scores are multiplied by (see {@link rankingOf}). */
export interface Ranking {
  expression: string;
  factor: number;
}

/**
 * An FTS5 expression to rank a query's documents with, and the factor that turns its `bm25()`
 * into that of {@link matchOf}`(query)` on every document, exactly. When the only positive clause
 * is required (a quoted phrase, `+word`), {@link matchOf} is `C AND C`: the same rows as `C`, and
 * bm25() sums each phrase's term, the same for both copies, so it is exactly twice `C`'s (doubling
 * a double is exact; a `not` clause's term is 0 on every matching row). `C` alone sets its
 * phrase up once, not twice (a prefix is merged once). Otherwise {@link matchOf} itself, factor 1.
 * Only for ranking: snippet() weighs the phrases otherwise, so snippets keep {@link matchOf}.
 *
 * @example
 * ```ts
 * rankingOf(parseSearchQuery('"rate limit"')); // { expression: '"rate limit"', factor: 2 }
 * ```
 */
export function rankingOf(query: ParsedQuery, scored: ScoredPhrase = () => true): Ranking | null {
  const match = matchOf(query, false, scored);
  if (match === null) return null;
  const positive = positiveClauses(query);
  const only = positive.length === 1 ? positive[0] : undefined;
  if (only === undefined || only.mode !== 'must') return { expression: match, factor: 1 };
  const not = query.clauses.filter((c) => c.mode === 'not').map((c) => c.expression);
  const expression = not.length === 0 ? only.expression : `(${only.expression}) NOT (${not.join(' OR ')})`;
  return { expression, factor: 2 };
}

/** A `should` word's clause that also matches the word's synonyms (`("search" OR "find" OR …)`). */
function withSynonyms(c: QueryClause): QueryClause {
  if (c.mode !== 'should' || c.phrase || c.stopWord) return c;
  const alternatives = synonymsOf(c.words[0] ?? '');
  if (alternatives.length === 0) return c;
  const own = c.expression;
  return { ...c, alternatives, expression: `(${[own, ...alternatives.map((w) => `"${w}"`)].join(' OR ')})` };
}

function wordsOf(chunk: string): string[] {
  return (chunk.match(WORD) ?? []).filter((w) => HAS_LETTER_OR_NUMBER.test(w)).map((w) => w.toLowerCase());
}

function clause(
  words: string[],
  phrase: boolean,
  prefix: boolean,
  stopWord: boolean,
  mode: ClauseMode = 'should',
): QueryClause {
  // Words hold no '"', so wrapping them in quotes is a complete escape.
  return {
    expression: `"${words.join(' ')}"${prefix ? '*' : ''}`,
    words,
    phrase,
    prefix,
    stopWord,
    mode,
    alternatives: [],
    stopWordsBefore: [],
  };
}

function dedupe(clauses: QueryClause[]): QueryClause[] {
  const seen = new Set<string>();
  return clauses.filter((c) => {
    const key = `${c.mode} ${c.expression}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
