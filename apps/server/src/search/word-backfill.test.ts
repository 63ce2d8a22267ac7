import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresPool } from '../store/postgres/connection.js';
import { migratePostgres } from '../store/postgres/migrate.js';
import { POSTGRES_MIGRATIONS } from '../store/postgres/migrations.js';
import { PostgresSearchIndex } from '../store/postgres/postgres-search-index.js';
import {
  postgresForTests,
  startThrowawayPostgres,
  type ThrowawayPostgres,
} from '../store/postgres/throwaway-postgres.test-support.js';
import { SqliteSearchIndex } from './sqlite-search-index.js';
import { ANALYZED_CHARACTERS } from './text-scans.js';
import type { IndexedDocument, SearchIndexLike } from './types.js';
import { backfillWordIndexes } from './word-backfill.js';
import { buildWordIndex } from './word-index.js';
import { WordIndexThreads } from './word-index-threads.js';

/** The hand-written corpus of the search quality harness (156 pages, 50 queries), none written for this test. */
const HANDWRITTEN = new URL('../../quality/search/handwritten/', import.meta.url);
const corpus = readdirSync(fileURLToPath(new URL('corpus/', HANDWRITTEN)))
  .filter((file) => file.endsWith('.json'))
  .flatMap(
    (file) =>
      JSON.parse(readFileSync(fileURLToPath(new URL(`corpus/${file}`, HANDWRITTEN)), 'utf8')) as {
        url: string;
        title: string;
        headings: string[];
        body: string;
      }[],
  );
const queries = (
  JSON.parse(readFileSync(fileURLToPath(new URL('queries.json', HANDWRITTEN)), 'utf8')) as { query: string }[]
)
  .map((q) => q.query)
  // A fifth of them: enough to compare answers, at a fifth of the time.
  .slice(0, 10);

const doc = (
  url: string,
  body: string,
  title: string | null = null,
  headings: string[] = [],
): IndexedDocument => ({
  owner: 'own_a',
  collection: 'docs',
  url,
  title,
  headings,
  body,
  runId: 'run_1',
});

/** The corpus, a page longer than what is analysed, and one whose body can have no word index (`İ`). */
const documents: IndexedDocument[] = [
  ...corpus.map((page) => doc(page.url, page.body, page.title, page.headings)),
  doc('https://long.example/', `${'lorem ipsum dolor sit amet '.repeat(ANALYZED_CHARACTERS / 20)}tail words`),
  doc('https://dotted.example/', 'İstanbul travel notes about the bridge'),
];

/** One store under test: its search index and raw access to the rows, as a database from before word indexes. */
interface Subject {
  index: SearchIndexLike;
  /** Every document's (url, stored body, stored word index or null). */
  rows(): Promise<{ url: string; body: string; words: Uint8Array | null }[]>;
  /** Drops every stored word index, as in a database indexed before them. */
  forgetWords(): Promise<void>;
  /** Changes a body as another writer would (an older server), leaving it without a word index. */
  changeBody(url: string, body: string): Promise<void>;
  seqOf(url: string): Promise<number>;
}

async function answers(index: SearchIndexLike) {
  const all = [];
  for (const query of queries) {
    const params = { query, collection: 'docs', limit: 10 };
    const first = await index.search('own_a', params);
    const second =
      first.next_cursor === null
        ? []
        : (await index.search('own_a', { ...params, cursor: first.next_cursor })).data;
    all.push(
      [...first.data, ...second].map(({ url, title, snippet, score }) => ({ url, title, snippet, score })),
    );
  }
  return all;
}

function backfillTests(name: string, open: () => Promise<Subject>, skip = false) {
  describe.skipIf(skip)(`word-index backfill on ${name}`, () => {
    let subject: Subject;
    const threads = new WordIndexThreads(1);
    beforeAll(async () => {
      subject = await open();
      for (const document of documents) await subject.index.upsert(document);
    });
    afterAll(() => threads.close());

    it('gives the documents indexed before word indexes theirs, the same as indexing gives, and the same answers', async () => {
      const indexed = await subject.rows();
      expect(indexed.filter((row) => row.words !== null)).toHaveLength(documents.length - 1);
      const before = await answers(subject.index);
      await subject.forgetWords();
      expect((await subject.rows()).every((row) => row.words === null)).toBe(true);

      const counts = await backfillWordIndexes(subject.index, {
        build: (text) => threads.build(text),
        span: 50,
      });
      expect(counts).toEqual({
        checked: documents.length,
        indexed: documents.length - 1,
        none: 1,
        skipped: 0,
      });
      const backfilled = await subject.rows();
      for (const row of backfilled) {
        const expected = buildWordIndex(row.body);
        expect(row.words === null ? null : Buffer.from(row.words), row.url).toEqual(expected);
      }
      expect(backfilled).toEqual(indexed);
      expect(await answers(subject.index)).toEqual(before);
      // Idempotent: a second pass finds only the body that can have no index, and writes nothing.
      expect(await backfillWordIndexes(subject.index, { build: (text) => threads.build(text) })).toEqual({
        checked: 1,
        indexed: 0,
        none: 1,
        skipped: 0,
      });
    }, 120_000); // A hang guard: it asserts what is written, not how fast (11-35 s on a loaded machine).

    it('does not give a body changed during the backfill the index of the body it read', async () => {
      await subject.forgetWords();
      const [first, second] = corpus;
      const firstSeq = await subject.seqOf(first!.url);
      const secondSeq = await subject.seqOf(second!.url);
      const reindexed = `${second!.body} reindexed with a newer body`;
      const counts = await backfillWordIndexes(subject.index, {
        build: async (text) => {
          const words = await threads.build(text);
          // While each of the two pages' index is being built: one's body changed by a writer that
          // gives it no index, the other's indexed again (with its own index).
          if (text === first!.body) await subject.changeBody(first!.url, `${first!.body} changed`);
          if (text === second!.body) await subject.index.upsert(doc(second!.url, reindexed, second!.title));
          return words;
        },
      });
      expect(counts.skipped).toBe(2);
      expect(counts.indexed).toBe(documents.length - 3);
      const rows = new Map((await subject.rows()).map((row) => [row.url, row]));
      expect(rows.get(first!.url)!.words).toBeNull();
      expect(Buffer.from(rows.get(second!.url)!.words!)).toEqual(buildWordIndex(reindexed));
      for (const row of rows.values())
        if (row.words !== null) expect(Buffer.from(row.words), row.url).toEqual(buildWordIndex(row.body));
      // The next pass gives the changed body its own index.
      const next = await backfillWordIndexes(subject.index, { build: (text) => threads.build(text) });
      expect(next).toEqual({ checked: 2, indexed: 1, none: 1, skipped: 0 });
      expect(await subject.seqOf(first!.url)).toBe(firstSeq);
      expect(await subject.seqOf(second!.url)).toBe(secondSeq);
      const changed = (await subject.rows()).find((row) => row.url === first!.url)!;
      expect(Buffer.from(changed.words!)).toEqual(buildWordIndex(`${first!.body} changed`));
    }, 120_000);

    it('stops when its signal is aborted, and waits while the process is busy', async () => {
      await subject.forgetWords();
      const controller = new AbortController();
      let built = 0;
      let busy = true;
      const pass = backfillWordIndexes(subject.index, {
        build: (text) => {
          built += 1;
          if (built === 3) controller.abort();
          return threads.build(text);
        },
        busy: () => busy,
        busyPauseMs: 5,
        signal: controller.signal,
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(built).toBe(0);
      busy = false;
      const counts = await pass;
      expect(built).toBe(3);
      expect(counts.checked).toBe(3);
    });
  });
}

backfillTests('SQLite', async () => {
  const db = new Database(':memory:');
  const index = new SqliteSearchIndex(db);
  return {
    index,
    rows: async () =>
      db
        .prepare(
          `SELECT d.url, d.body, w.words FROM search_documents d LEFT JOIN search_words w ON w.seq = d.seq ORDER BY d.seq`,
        )
        .all() as { url: string; body: string; words: Uint8Array | null }[],
    forgetWords: async () => {
      db.exec('DELETE FROM search_words');
    },
    changeBody: async (url, body) => {
      db.prepare('UPDATE search_documents SET body = ? WHERE url = ?').run(body, url);
    },
    seqOf: async (url) =>
      db.prepare('SELECT seq FROM search_documents WHERE url = ?').pluck().get(url) as number,
  };
});

const withPostgres = postgresForTests();
let cluster: ThrowawayPostgres | undefined;
let pool: pg.Pool | undefined;
afterAll(async () => {
  await pool?.end();
  await cluster?.stop();
});

backfillTests(
  'PostgreSQL',
  async () => {
    cluster = await startThrowawayPostgres();
    const db = createPostgresPool(await cluster.createDatabase());
    pool = db;
    await migratePostgres(db, POSTGRES_MIGRATIONS);
    return {
      index: new PostgresSearchIndex(db),
      rows: async () =>
        (
          await db.query<{ url: string; body: string; words: Buffer | null }>(
            'SELECT url, body, words FROM search_documents ORDER BY seq',
          )
        ).rows.map((row) => ({ ...row, words: row.words === null ? null : new Uint8Array(row.words) })),
      forgetWords: async () => {
        await db.query('UPDATE search_documents SET words = NULL');
      },
      changeBody: async (url, body) => {
        await db.query('UPDATE search_documents SET body = $1 WHERE url = $2', [body, url]);
      },
      seqOf: async (url) =>
        Number(
          (await db.query<{ seq: string }>('SELECT seq FROM search_documents WHERE url = $1', [url])).rows[0]!
            .seq,
        ),
    };
  },
  !withPostgres,
);
