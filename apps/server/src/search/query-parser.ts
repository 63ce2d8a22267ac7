import { STOP_WORDS } from './stop-words.js';

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
}

/** A user query turned into FTS5 clauses; empty when it held no searchable word. */
export interface ParsedQuery {
  clauses: QueryClause[];
}

/** How {@link parseSearchQuery} reads a query. */
export interface QueryParseOptions {
  /** Give the last bare word prefix matching (search-as-you-type). Default true. */
  prefixLastWord?: boolean;
  /** Drop stop words outside phrases when a content word remains. Default true. */
  dropStopWords?: boolean;
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
      if (words.length > 0) clauses.push(clause(words, words.length > 1, prefix, false));
      if (prefix) pieces[i + 1] = next.slice(1);
      continue;
    }
    for (const chunk of piece.split(/\s+/)) {
      const words = wordsOf(chunk);
      if (words.length === 0) continue;
      const prefix = chunk.endsWith('*') && (words.at(-1)?.length ?? 0) >= MIN_EXPLICIT_PREFIX;
      const bare = chunk.replace(/\u2019/g, "'").replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
      clauses.push(clause(words, words.length > 1, prefix, !prefix && STOP_WORDS.has(bare.toLowerCase())));
    }
  }

  let kept = clauses;
  if (dropStopWords) {
    const content = clauses.filter((c) => !c.stopWord);
    if (content.length > 0) kept = content;
  }
  kept = dedupe(kept).slice(0, MAX_QUERY_CLAUSES);

  const last = kept.at(-1);
  if (prefixLastWord && last !== undefined && !last.phrase && !last.prefix) {
    const word = last.words[0] ?? '';
    if ([...word].length >= MIN_IMPLICIT_PREFIX && !/^\p{N}+$/u.test(word)) {
      kept[kept.length - 1] = clause(last.words, false, true, false);
    }
  }
  return { clauses: kept };
}

/** The FTS5 expression that requires every clause. */
export function allOf(query: ParsedQuery): string {
  return query.clauses.map((c) => c.expression).join(' AND ');
}

/** The FTS5 expression that requires any clause. */
export function anyOf(query: ParsedQuery): string {
  return query.clauses.map((c) => c.expression).join(' OR ');
}

/**
 * The clauses as one `NEAR` group (all within `distance` tokens of each other),
 * or null when there are fewer than two.
 */
export function nearOf(query: ParsedQuery, distance: number): string | null {
  if (query.clauses.length < 2) return null;
  return `NEAR(${query.clauses.map((c) => c.expression).join(' ')}, ${Math.max(0, Math.trunc(distance))})`;
}

function wordsOf(chunk: string): string[] {
  return (chunk.match(WORD) ?? []).filter((w) => HAS_LETTER_OR_NUMBER.test(w)).map((w) => w.toLowerCase());
}

function clause(words: string[], phrase: boolean, prefix: boolean, stopWord: boolean): QueryClause {
  // Words hold no '"', so wrapping them in quotes is a complete escape.
  return { expression: `"${words.join(' ')}"${prefix ? '*' : ''}`, words, phrase, prefix, stopWord };
}

function dedupe(clauses: QueryClause[]): QueryClause[] {
  const seen = new Set<string>();
  return clauses.filter((c) => {
    if (seen.has(c.expression)) return false;
    seen.add(c.expression);
    return true;
  });
}
