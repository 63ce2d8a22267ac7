import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { SqliteSearchIndex, type SqliteSearchIndexOptions } from '../../src/search/sqlite-search-index.js';
import { BASELINES } from './baselines.js';
import { keptDocuments } from './crawled-manuals.js';
import type { KeptSet } from './kept-crawl.js';
import { judgedIdOf } from './manuals.js';
import { firstRelevant, type JudgedQuestion } from './metrics.js';
import { loadQuestions, type QuestionSet, splitLabel } from './question-sets.js';

/** One question set's dev questions asked of a kept crawl's index under one ranking. */
export interface AskedDevSet {
  /** The set's printed dev label (`dev`, `dev-django`). */
  label: string;
  questions: JudgedQuestion[];
  /** The judged ids of each question's first ten hits (null: a page of no manual). */
  ranked: (string | null)[][];
  /** Each question's first relevant position among them (-1: none). */
  positions: number[];
  /** Each question's search time, ms (in-process; the baselines' include nothing else either). */
  millis: number[];
}

/**
 * Asks each kept set's dev questions (never a held one) in its own
 * collection of the index, in-process, ranked with `options`. With
 * `vectors` (each question's embedding, see `embedQuestions`), a question
 * found there is searched with it: the semantic path, fused with the
 * lexical one, as the server does when `WEBDATA_EMBEDDINGS_*` are set.
 */
export function askDevSets(
  db: Database.Database,
  origins: Record<string, string>,
  sets: readonly KeptSet[],
  options: SqliteSearchIndexOptions = {},
  vectors?: ReadonlyMap<string, Float32Array>,
): AskedDevSet[] {
  const index = new SqliteSearchIndex(db, options);
  return sets.map(({ set, owner, collection }) =>
    askDevQuestions(set, origins, (question) =>
      index
        .search(owner, { query: question, collection, limit: 10 }, vectors?.get(question) ?? null)
        .data.map((hit) => hit.url),
    ),
  );
}

/** Every dev question of the sets (never a held one), as typed. */
export function devQuestionsOf(sets: readonly QuestionSet[]): string[] {
  return sets.flatMap((set) =>
    loadQuestions(set)
      .filter((q) => q.split === 'dev')
      .map((q) => q.question),
  );
}

/** A set's dev questions asked of `rank` (the URLs of its top hits), read as judged pages. */
function askDevQuestions(
  set: QuestionSet,
  origins: Record<string, string>,
  rank: (question: string) => string[],
): AskedDevSet {
  const questions = loadQuestions(set).filter((q) => q.split === 'dev');
  const millis: number[] = [];
  const ranked = questions.map((q) => {
    const started = performance.now();
    const urls = rank(q.question);
    millis.push(performance.now() - started);
    return urls.map((url) => judgedIdOf(url, origins));
  });
  return {
    label: splitLabel(set, 'dev'),
    questions,
    ranked,
    positions: questions.map((q, i) => firstRelevant(ranked[i] ?? [], q.relevant)),
    millis,
  };
}

/** One plain baseline's answers to every kept dev set, beside ours. */
export interface AskedBaseline {
  /** The baseline's printed name (`plain FTS5 (porter, OR, bm25)`). */
  name: string;
  /** Per kept set, in the order asked: the same questions as {@link askDevSets} gives. */
  sets: AskedDevSet[];
}

/**
 * Asks each kept set's dev questions of the plain baselines (plain FTS5 and
 * MiniSearch defaults), each built from that set's pages as the kept crawl
 * read them back (`harness-documents.json`), as run.ts does: our figure on a
 * set only means something beside the baseline on the same pages.
 */
export function askDevBaselines(
  dataDir: string,
  origins: Record<string, string>,
  sets: readonly KeptSet[],
): AskedBaseline[] {
  const documents = keptDocuments(readFileSync(join(dataDir, 'harness-documents.json'), 'utf8'));
  const perSet = sets.map(({ set, collection }) => ({
    set,
    pages: documents.filter((doc) => doc.collection === collection),
  }));
  return BASELINES.map(({ name, build }) => ({
    name,
    sets: perSet.map(({ set, pages }) => askDevQuestions(set, origins, build(pages))),
  }));
}
