import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { summaryOf } from '../../search/rerank.js';
import { releaseNotesAndGuide } from '../../search/series-pages.test-support.js';
import {
  longPage,
  pageLackingAWord,
  type SmallFieldCase,
} from '../../search/small-field-candidates.test-support.js';
import { DEFAULT_FIELD_CANDIDATES, SqliteSearchIndex } from '../../search/sqlite-search-index.js';
import { createPostgresPool } from './connection.js';
import { migratePostgres } from './migrate.js';
import { POSTGRES_MIGRATIONS } from './migrations.js';
import { PostgresSearchIndex } from './postgres-search-index.js';
import {
  postgresForTests,
  startThrowawayPostgres,
  type ThrowawayPostgres,
} from './throwaway-postgres.test-support.js';

/** The hand-written corpus of the search quality harness: 156 pages, 50 judged queries, none written for this test. */
const HANDWRITTEN = new URL('../../../quality/search/handwritten/', import.meta.url);

interface Page {
  id: string;
  url: string;
  title: string;
  headings: string[];
  body: string;
}

const pages: Page[] = readdirSync(fileURLToPath(new URL('corpus/', HANDWRITTEN)))
  .filter((file) => file.endsWith('.json'))
  .flatMap(
    (file) =>
      JSON.parse(readFileSync(fileURLToPath(new URL(`corpus/${file}`, HANDWRITTEN)), 'utf8')) as Page[],
  );
const queries = JSON.parse(readFileSync(fileURLToPath(new URL('queries.json', HANDWRITTEN)), 'utf8')) as {
  query: string;
  relevant: string[];
}[];

describe.skipIf(!postgresForTests())('PostgresSearchIndex beside SqliteSearchIndex', () => {
  let cluster: ThrowawayPostgres;
  let pool: pg.Pool;
  let postgres: PostgresSearchIndex;
  const sqlite = new SqliteSearchIndex(new Database(':memory:'));
  const idOf = new Map(pages.map((page) => [page.url, page.id]));
  const doc = (page: Page, owner = 'own_a', collection = 'docs') => ({
    owner,
    collection,
    url: page.url,
    title: page.title,
    headings: page.headings,
    body: page.body,
    runId: 'run_1',
  });

  beforeAll(async () => {
    cluster = await startThrowawayPostgres();
    pool = createPostgresPool(await cluster.createDatabase());
    await migratePostgres(pool, POSTGRES_MIGRATIONS);
    postgres = new PostgresSearchIndex(pool);
    for (const page of pages) {
      sqlite.upsert(doc(page));
      await postgres.upsert(doc(page));
    }
  });
  afterAll(async () => {
    await pool?.end();
    await cluster?.stop();
  });

  it('ranks the same documents close to the SQLite index (same queries, same pages)', async () => {
    let sameFirst = 0;
    let overlap = 0;
    const reciprocal = { sqlite: 0, postgres: 0 };
    for (const { query, relevant } of queries) {
      const params = { query, collection: 'docs', limit: 10 } as const;
      const a = sqlite.search('own_a', params).data.map((hit) => idOf.get(hit.url)!);
      const b = (await postgres.search('own_a', params)).data.map((hit) => idOf.get(hit.url)!);
      if (a[0] !== undefined && a[0] === b[0]) sameFirst++;
      const topA = new Set(a.slice(0, 5));
      overlap += b.slice(0, 5).filter((id) => topA.has(id)).length / Math.max(1, Math.min(5, topA.size));
      const rr = (ids: string[]) => {
        const rank = ids.findIndex((id) => relevant.includes(id));
        return rank < 0 ? 0 : 1 / (rank + 1);
      };
      reciprocal.sqlite += rr(a);
      reciprocal.postgres += rr(b);
    }
    const n = queries.length;
    const figures = {
      queries: n,
      sameFirstHit: sameFirst / n,
      top5Overlap: overlap / n,
      mrr10: { sqlite: reciprocal.sqlite / n, postgres: reciprocal.postgres / n },
    };
    console.log(`search on both stores, ${pages.length} pages: ${JSON.stringify(figures)}`);
    // Close, not identical: stemmers (Porter vs Snowball) and scoring details differ.
    expect(figures.sameFirstHit).toBeGreaterThanOrEqual(0.8);
    expect(figures.top5Overlap).toBeGreaterThanOrEqual(0.8);
    expect(figures.mrr10.postgres).toBeGreaterThanOrEqual(figures.mrr10.sqlite - 0.1);
  });

  it('keeps the query syntax: phrases, prefixes, filters, owners and the cursor', async () => {
    const search = (query: string, extra: object = {}, owner = 'own_a') =>
      postgres.search(owner, { query, collection: 'docs', limit: 10, ...extra });
    const phrase = await search('"stale-while-revalidate"');
    expect(phrase.data.length).toBeGreaterThan(0);
    for (const hit of phrase.data) expect(hit.snippet).toMatch(/<mark>/);
    // A prefix as typed: the same pages as the SQLite index finds for it.
    const prefix = await search('revalid*');
    expect(prefix.data.length).toBeGreaterThan(0);
    const sqlitePrefix = sqlite.search('own_a', { query: 'revalid*', collection: 'docs', limit: 10 });
    expect(new Set(prefix.data.map((hit) => hit.url))).toEqual(
      new Set(sqlitePrefix.data.map((hit) => hit.url)),
    );
    const site = new URL(pages[0]!.url).host;
    const filtered = await search('the', { filters: { site } });
    for (const hit of filtered.data) expect(new URL(hit.url).host).toBe(site);
    expect((await search('cache', {}, 'own_other')).data).toEqual([]);
    const first = await search('cache', { limit: 3 });
    expect(first.next_cursor).not.toBeNull();
    const second = await search('cache', { limit: 3, cursor: first.next_cursor });
    expect(second.data.map((hit) => hit.url)).not.toContain(first.data[0]!.url);
    await expect(search('git', { cursor: first.next_cursor })).rejects.toMatchObject({
      code: 'invalid_request',
    });
  });

  it("reads a page's summary past a long synopsis, as the SQLite index does", async () => {
    // The same words in both bodies, in another order: only the first sentence of prose differs.
    const synopsis = `SYNOPSIS\n\n${Array.from({ length: 30 }, (_, i) => `tool [--option-${i}]`).join(' ')}`;
    const annotates = 'Annotates each line of a file with the author who last modified it.';
    const other = 'Writes a report of the working tree into the standard output stream.';
    const page = (name: string, body: string) => ({
      owner: 'own_a',
      collection: 'summaries',
      url: `https://d.example/${name}`,
      title: `tool-${name}(1)`,
      headings: [],
      body,
      runId: 'run_1',
    });
    await postgres.upsert(page('b', `${synopsis}\n\n${other}\n\n${annotates}`));
    await postgres.upsert(page('a', `${synopsis}\n\n${annotates}\n\n${other}`));
    const answer = await postgres.search('own_a', {
      query: 'author of each line',
      collection: 'summaries',
      limit: 10,
    });
    expect(answer.data.map((hit) => hit.url)).toEqual(['https://d.example/a', 'https://d.example/b']);
    // Not a tie broken by chance: the bodies score about alike, the summary's words lift the first.
    expect(answer.data[0]!.score).toBeGreaterThan(answer.data[1]!.score * 1.1);
  });

  it('scores the phrase as typed, stop words included, as the SQLite index does', async () => {
    const page = (name: string, body: string) => ({
      owner: 'own_a',
      collection: 'typed-phrases',
      url: `https://d.example/${name}`,
      title: null,
      headings: [],
      body,
      runId: 'run_1',
    });
    // Pages without the words, so that theirs weigh something in BM25.
    for (const topic of ['fonts', 'colours', 'layout', 'printing', 'caching', 'logging'])
      await postgres.upsert(page(topic, `How ${topic} work here.`));
    // The shorter page holds both words side by side too, in the other order: BM25 alone prefers it.
    await postgres.upsert(page('other', 'Results list: each query has one, page by page.'));
    await postgres.upsert(page('typed', 'Each query shows its list of results, page by page.'));
    const answer = await postgres.search('own_a', {
      query: 'list of results',
      collection: 'typed-phrases',
      limit: 10,
    });
    expect(answer.data.map((hit) => hit.url)).toEqual(['https://d.example/typed', 'https://d.example/other']);
  });

  it('ranks by the summary stored with the page, as the SQLite index does', async () => {
    // Two pages alike but for their URL: the same BM25, the same lead, the same summary.
    const body = `Writes a report of the working tree into the standard output stream.\n\n${'More text on other things. '.repeat(5)}Each line holds its author.`;
    const page = (name: string) => ({
      owner: 'own_a',
      collection: 'stored-summaries',
      url: `https://d.example/${name}`,
      title: 'tool(1)',
      headings: [],
      body,
      runId: 'run_1',
    });
    await postgres.upsert(page('first'));
    await postgres.upsert(page('second'));
    const ranked = async () =>
      (
        await postgres.search('own_a', {
          query: 'author of each line',
          collection: 'stored-summaries',
          limit: 10,
        })
      ).data.map((hit) => hit.url);
    expect(await ranked()).toEqual(['https://d.example/first', 'https://d.example/second']);
    // The second page's stored summary now names what is asked: the ranking reads the column, not
    // the body's first sentence again (which still says nothing of authors or lines).
    await pool.query('UPDATE search_documents SET summary = $1 WHERE collection = $2 AND url = $3', [
      'Annotates each line of a file with the author who last modified it.',
      'stored-summaries',
      'https://d.example/second',
    ]);
    expect(await ranked()).toEqual(['https://d.example/second', 'https://d.example/first']);
  });

  it("ranks a guide above release notes of many versions that repeat the question's words, as on SQLite", async () => {
    const c = releaseNotesAndGuide('own_a', 'series');
    for (const d of c.documents) await postgres.upsert(d);
    const answer = await postgres.search(c.owner, { query: c.query, collection: c.collection, limit: 10 });
    expect(answer.data.map((hit) => hit.url)[0]).toBe(c.wanted);
    expect(answer.data).toHaveLength(c.documents.length);
  });

  describe('small-field candidates, as on SQLite', () => {
    /** The wanted page's rank in the first 50 hits (Infinity when absent). */
    const rankOf = async (index: PostgresSearchIndex, c: SmallFieldCase, collection: string) => {
      const answer = await index.search(c.owner, { query: c.query, collection, limit: 50 });
      const rank = answer.data.findIndex((hit) => hit.url === c.wanted) + 1;
      return rank === 0 ? Number.POSITIVE_INFINITY : rank;
    };
    const indexed = async (c: SmallFieldCase) => {
      for (const d of c.documents) await postgres.upsert(d);
      return c;
    };

    it('reaches a page whose summary says what is asked though its body lacks a word over a hundred pages hold', async () => {
      const c = await indexed(pageLackingAWord('own_a', 'lacking'));
      const off = new PostgresSearchIndex(pool, { ...DEFAULT_FIELD_CANDIDATES, depth: 0 });
      expect(await rankOf(off, c, 'lacking')).toBe(Number.POSITIVE_INFINITY);
      expect(await rankOf(postgres, c, 'lacking')).toBeLessThanOrEqual(3);
      // "since" stands in the wanted page's synopsis, outside its small fields: excluded, it is left out.
      expect(await rankOf(postgres, { ...c, query: `${c.query} -since` }, 'lacking')).toBe(
        Number.POSITIVE_INFINITY,
      );
    });

    it("scores a long page joined by its small fields by their score, not only its body's", async () => {
      const c = await indexed(longPage('own_a', 'long'));
      const bodyOnly = new PostgresSearchIndex(pool, { ...DEFAULT_FIELD_CANDIDATES, scale: 0 });
      expect(await rankOf(bodyOnly, c, 'long')).toBeGreaterThan(10);
      expect(await rankOf(postgres, c, 'long')).toBe(1);
    });

    it('gives a database from before the small fields every summary and their index', async () => {
      const old = createPostgresPool(await cluster.createDatabase());
      try {
        // Every migration before the small fields' (the later ones are applied with it).
        const before = POSTGRES_MIGRATIONS.findIndex(
          (m) => typeof m === 'function' && m.name === 'addSearchSmallFields',
        );
        expect(before).toBeGreaterThan(0);
        await migratePostgres(old, POSTGRES_MIGRATIONS.slice(0, before));
        const c = pageLackingAWord('own_a', 'docs');
        // As the indexer before the small fields wrote them: document, tsvector, length, frequencies.
        for (const [i, d] of c.documents.entries()) {
          await old.query(
            `INSERT INTO search_documents (id, owner, collection, url, site, title, headings, body, indexed_at, tsv, length)
             SELECT $1, $2, $3, $4, 'd.example', $5, '', $6, now(), v.tsv, length(v.tsv)
             FROM (SELECT setweight(to_tsvector('english', $5), 'A') || setweight(to_tsvector('english', $6), 'D') AS tsv) v`,
            [`doc_${i}`, d.owner, d.collection, d.url, d.title, d.body],
          );
        }
        await old.query(`
          INSERT INTO search_term_counts (owner, collection, term, documents)
          SELECT owner, collection, t.term, count(*) FROM search_documents, unnest(tsvector_to_array(tsv)) AS t(term)
          GROUP BY owner, collection, t.term`);

        expect(await migratePostgres(old, POSTGRES_MIGRATIONS)).toEqual(
          POSTGRES_MIGRATIONS.slice(before).map((_, i) => before + 1 + i),
        );

        const wanted = c.documents.find((d) => d.url === c.wanted)!;
        const { rows } = await old.query<{ summary: string; fields_length: number }>(
          'SELECT summary, fields_length FROM search_documents WHERE url = $1',
          [c.wanted],
        );
        expect(rows[0]!.summary).toBe(summaryOf(wanted.body));
        expect(rows[0]!.fields_length).toBeGreaterThan(0);
        expect(await rankOf(new PostgresSearchIndex(old), c, 'docs')).toBeLessThanOrEqual(3);
      } finally {
        await old.end();
      }
    });
  });

  it('keeps document frequencies in step when documents are replaced and runs removed', async () => {
    const counts = async () =>
      (
        await pool.query<{ documents: number }>(
          "SELECT count(*)::int AS documents FROM search_documents WHERE owner = 'own_b' AND collection = 'c'",
        )
      ).rows[0]?.documents ?? 0;
    const df = async (term: string) =>
      (
        await pool.query<{ documents: number }>(
          "SELECT sum(documents)::int AS documents FROM search_term_counts WHERE owner = 'own_b' AND collection = 'c' AND term = $1",
          [term],
        )
      ).rows[0]?.documents ?? 0;
    const one = { ...doc(pages[0]!, 'own_b', 'c'), title: 'walnut', headings: [], body: 'walnut brass' };
    await postgres.upsert(one);
    await postgres.upsert({
      ...one,
      url: 'https://other.example/',
      runId: 'run_2',
      title: 'other',
      body: 'brass only',
    });
    expect([await counts(), await df('walnut'), await df('brass')]).toEqual([2, 1, 2]);
    // Replacing a document's text moves its counts; removing the run takes it out.
    await postgres.upsert({ ...one, title: 'copper', body: 'copper' });
    expect([await counts(), await df('walnut'), await df('brass'), await df('copper')]).toEqual([2, 0, 1, 1]);
    await postgres.removeRun('run_2');
    expect([await counts(), await df('brass')]).toEqual([1, 0]);
  });

  it("answers from the pages' word indexes as from their bodies, and keeps each index with its body", async () => {
    const answers = async (query: string) => {
      const first = await postgres.search('own_a', { query, collection: 'docs', limit: 10 });
      const second =
        first.next_cursor === null
          ? []
          : (
              await postgres.search('own_a', {
                query,
                collection: 'docs',
                limit: 10,
                cursor: first.next_cursor,
              })
            ).data;
      return [...first.data, ...second].map(({ url, title, snippet, score }) => ({
        url,
        title,
        snippet,
        score,
      }));
    };
    const indexed = async () =>
      (
        await pool.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM search_documents WHERE owner = 'own_a' AND collection = 'docs' AND words IS NOT NULL",
        )
      ).rows[0]!.n;
    expect(await indexed()).toBe(pages.length);
    const withIndexes = [];
    for (const { query } of queries) withIndexes.push(await answers(query));
    // As a database from before the word indexes: every body read and scanned.
    await pool.query(
      "UPDATE search_documents SET words = NULL WHERE owner = 'own_a' AND collection = 'docs'",
    );
    for (const [i, { query }] of queries.entries())
      expect(withIndexes[i], query).toEqual(await answers(query));
    for (const page of pages) await postgres.upsert(doc(page));
    expect(await indexed()).toBe(pages.length);
    // A body changed without a new index (an older server, a hand edit) loses its index.
    await pool.query(
      "UPDATE search_documents SET body = body || ' walnut' WHERE owner = 'own_a' AND url = $1",
      [pages[0]!.url],
    );
    expect(await indexed()).toBe(pages.length - 1);
    await postgres.upsert(doc(pages[0]!));
    expect(await indexed()).toBe(pages.length);
  });
});
