import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../test/seeded-random.js';
import { allClausesOf, matchOf, parseSearchQuery, rankingOf } from '../../../search/query-parser.js';
import { migrateSearchIndex } from './schema.js';
import { ASKED_DEPTH, type MatchQuery, type MatchRow, SearchDocumentStore } from './search-document-store.js';

const WEIGHTS = { title: 10, headings: 4, body: 1 };
// Few, overlapping words (a Zipf-like draw), so many pages tie or nearly tie and most queries
// match pages of every collection.
const VOCABULARY = [
  'cache',
  'server',
  'retry',
  'limit',
  'token',
  'stream',
  'queue',
  'worker',
  'index',
  'table',
  'config',
  'header',
  'request',
  'response',
  'memory',
  'version',
  'cached',
  'caching',
  'serve',
  'served',
];

/**
 * 600 pages over three owners' collections of very different sizes (500, 75, 20 and 5
 * pages), on two sites, so a collection's best rows are sometimes all among the index's best and
 * sometimes far from them.
 */
function corpus(): { db: Database.Database; store: SearchDocumentStore } {
  const db = new Database(':memory:');
  migrateSearchIndex(db);
  const store = new SearchDocumentStore(db);
  const random = seededRandom(7);
  const word = () => VOCABULARY[Math.floor(random() ** 2 * VOCABULARY.length)] ?? 'cache';
  const words = (n: number) => Array.from({ length: n }, word).join(' ');
  const collections: [string, string, number][] = [
    ['owner_a', 'big', 500],
    ['owner_a', 'small', 75],
    ['owner_b', 'big', 20],
    ['owner_c', 'tiny', 5],
  ];
  let n = 0;
  db.transaction(() => {
    for (let round = 0; collections.some(([, , size]) => size > round); round += 1) {
      for (const [owner, collection, size] of collections) {
        if (round >= size) continue;
        n += 1;
        const site = n % 3 === 0 ? 'b.example' : 'a.example';
        store.upsert(
          {
            id: `doc_${n}`,
            owner,
            collection,
            url: `https://${site}/${n % 2 === 0 ? 'guide' : 'api'}/${n}`,
            site,
            title: random() < 0.1 ? null : words(1 + Math.floor(random() * 4)),
            headings: words(Math.floor(random() * 5)),
            body: words(5 + Math.floor(random() * 60)),
            summary: '',
            indexedAt: '2026-11-25T00:00:00.000Z',
          },
          'run_1',
        );
      }
    }
  })();
  return { db, store };
}

/** The reference: every matching row looked up, filtered, then ranked (no shortcut). */
function exhaustive(db: Database.Database, query: MatchQuery): MatchRow[] {
  const params: unknown[] = [query.match, query.owner, query.collection];
  let filters = '';
  if (query.urlPrefix !== undefined) {
    filters += ' AND instr(d.url, ?) = 1';
    params.push(query.urlPrefix);
  }
  if (query.site !== undefined) {
    filters += ' AND d.site = ?';
    params.push(query.site);
  }
  return db
    .prepare(
      `SELECT d.seq AS seq, -bm25(search_fts, 10, 4, 1) AS score
       FROM search_fts JOIN search_documents d ON d.seq = search_fts.rowid
       WHERE search_fts MATCH ? AND d.owner = ? AND d.collection = ?${filters}`,
    )
    .all(...params)
    .map((row) => row as MatchRow)
    .sort((a, b) => b.score - a.score || a.seq - b.seq)
    .slice(0, query.limit);
}

/** Every row of the index (any collection) matching `match`, best first, as the FTS index ranks them. */
function exhaustiveOfIndex(db: Database.Database, match: string): MatchRow[] {
  return db
    .prepare(
      `SELECT rowid AS seq, -bm25(search_fts, 10, 4, 1) AS score FROM search_fts WHERE search_fts MATCH ?
       ORDER BY score DESC, seq`,
    )
    .all(match) as MatchRow[];
}

const QUERIES = [
  'cache',
  'cach',
  'serve',
  'retry limit',
  'token stream queue',
  'how do I configure the request header',
  '"cache server"',
  'cache -server',
  '+index table',
  'memory version worker response',
  'nothingmatchesthis',
  '"cache"',
  '+retry',
  '"cache server" -retry',
  '+token -"stream queue"',
];

const COLLECTIONS = [
  ['owner_a', 'big'],
  ['owner_a', 'small'],
  ['owner_b', 'big'],
  ['owner_c', 'tiny'],
  ['owner_b', 'small'],
] as const;

describe('SearchDocumentStore.findMatches', () => {
  it("answers exactly the exhaustive ranking's best rows, whatever the collection's share of the index", () => {
    const { db, store } = corpus();
    let compared = 0;
    for (const text of QUERIES) {
      for (const allWords of [false, true]) {
        const match = matchOf(parseSearchQuery(text), allWords);
        if (match === null) continue;
        for (const [owner, collection] of [
          ['owner_a', 'big'],
          ['owner_a', 'small'],
          ['owner_b', 'big'],
          ['owner_c', 'tiny'],
          ['owner_b', 'small'],
        ] as const) {
          for (const filters of [{}, { site: 'b.example' }, { urlPrefix: 'https://a.example/guide/' }]) {
            for (const limit of [1, 10, 100, 1000]) {
              const query: MatchQuery = { owner, collection, match, weights: WEIGHTS, limit, ...filters };
              expect(store.findMatches(query), `${text} ${owner}/${collection} ${limit}`).toEqual(
                exhaustive(db, query),
              );
              compared += 1;
            }
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(400);
  });

  it('never answers with another owner’s or collection’s document', () => {
    const { db, store } = corpus();
    const rows = store.findMatches({
      owner: 'owner_c',
      collection: 'tiny',
      match: '"cache"',
      weights: WEIGHTS,
      limit: 5,
    });
    expect(rows.length).toBeGreaterThan(0);
    for (const { seq } of rows) {
      expect(db.prepare('SELECT owner, collection FROM search_documents WHERE seq = ?').get(seq)).toEqual({
        owner: 'owner_c',
        collection: 'tiny',
      });
    }
  });
});

describe('SearchDocumentStore.findMatchesScoring', () => {
  it("answers findMatches' rows, and each asked page's score as scoresOf gives it when the FTS index ranked it among its best askedDepth", () => {
    const { db, store } = corpus();
    const random = seededRandom(11);
    const allSeqs = db.prepare('SELECT seq FROM search_documents').pluck().all() as number[];
    let scored = 0;
    // Asked pages scored past the rows ranked for the answer (the askedDepth beyond 4 × limit).
    let pastRanked = 0;
    for (const text of QUERIES) {
      const match = matchOf(parseSearchQuery(text));
      if (match === null) continue;
      for (const [owner, collection] of COLLECTIONS) {
        for (const [limit, askedDepth] of [
          [1, 0],
          [1, 12],
          [10, 0],
          [10, 60],
          [100, 0],
          [100, ASKED_DEPTH],
        ] as const) {
          const query: MatchQuery = { owner, collection, match, weights: WEIGHTS, limit };
          const asked = allSeqs.filter(() => random() < 0.05);
          const { rows, scores } = store.findMatchesScoring(query, asked, askedDepth);
          expect(rows, `${text} ${owner}/${collection} ${limit}`).toEqual(store.findMatches(query));
          const expected = store.scoresOf(match, asked, WEIGHTS);
          // The FTS index's best askedDepth rows (at least 4 × limit), whatever their collection.
          const order = exhaustiveOfIndex(db, match).map((row) => row.seq);
          const ranked = new Set(order.slice(0, Math.max(4 * limit, askedDepth)));
          const rankedFirst = new Set(order.slice(0, 4 * limit));
          for (const seq of asked) {
            expect(scores.get(seq), `${text} ${seq}`).toBe(ranked.has(seq) ? expected.get(seq) : undefined);
            if (scores.has(seq)) scored += 1;
            if (scores.has(seq) && !rankedFirst.has(seq)) pastRanked += 1;
          }
        }
      }
    }
    expect(scored).toBeGreaterThan(100);
    expect(pastRanked).toBeGreaterThan(10);
  });
});

describe('SearchDocumentStore.countMatches with allClausesOf', () => {
  it('counts the documents matchOf(query, true) finds, up to the bound', () => {
    const { db, store } = corpus();
    let counted = 0;
    for (const text of QUERIES) {
      const parsed = parseSearchQuery(text);
      const all = matchOf(parsed, true);
      const clauses = allClausesOf(parsed);
      if (all === null || clauses === null) continue;
      const total = exhaustiveOfIndex(db, all).length;
      for (const atMost of [1, 10, 100, 10_000]) {
        expect(store.countMatches(clauses, atMost), `${text} ${atMost}`).toBe(Math.min(total, atMost));
        counted += total > 0 ? 1 : 0;
      }
    }
    expect(counted).toBeGreaterThan(20);
  });
});

describe('rankingOf', () => {
  it('ranks the same rows as matchOf, with scores equal once multiplied by its factor', () => {
    const { store } = corpus();
    const doubled = new Set<string>();
    for (const text of QUERIES) {
      const parsed = parseSearchQuery(text);
      const match = matchOf(parsed);
      const ranking = rankingOf(parsed);
      if (match === null || ranking === null) {
        expect(ranking).toBe(match);
        continue;
      }
      if (ranking.factor === 1) expect(ranking.expression).toBe(match);
      else doubled.add(text);
      for (const [owner, collection] of COLLECTIONS) {
        for (const index of ['body', 'fields'] as const) {
          for (const limit of [1, 10, 1000]) {
            const query: MatchQuery = { owner, collection, match, weights: WEIGHTS, limit, index };
            const rows = store
              .findMatches({ ...query, match: ranking.expression })
              .map((row) => ({ seq: row.seq, score: row.score * ranking.factor }));
            expect(rows, `${text} ${owner}/${collection} ${index} ${limit}`).toEqual(
              store.findMatches(query),
            );
          }
        }
      }
    }
    expect([...doubled].sort()).toEqual(
      ['"cache"', '+retry', '"cache server" -retry', '+token -"stream queue"', '"cache server"'].sort(),
    );
  });
});

describe('SearchDocumentStore.snippets', () => {
  it("gives each page the snippet a look-up of that page alone gives, and leaves out pages that don't match", () => {
    const { db, store } = corpus();
    const single = (column: number) =>
      db
        .prepare(
          `SELECT snippet(search_fts, ${column}, char(1), char(2), char(3), 30) FROM search_fts
           WHERE search_fts MATCH ? AND rowid = CAST(? AS INTEGER)`,
        )
        .pluck();
    const body = single(2);
    const any = single(-1);
    for (const text of ['cach', 'retry limit', 'token stream queue', '"cache server"']) {
      const match = matchOf(parseSearchQuery(text));
      if (match === null) continue;
      // Matching pages spread over the index, and one that does not match.
      const seqs = exhaustive(db, {
        owner: 'owner_a',
        collection: 'big',
        match,
        weights: WEIGHTS,
        limit: 2000,
      })
        .map((row) => row.seq)
        .filter((_, i) => i % 47 === 0);
      const missing = db
        .prepare(
          'SELECT seq FROM search_documents WHERE seq NOT IN (SELECT rowid FROM search_fts WHERE search_fts MATCH ?) LIMIT 1',
        )
        .pluck()
        .get(match) as number | undefined;
      const asked = missing === undefined ? seqs : [...seqs, missing];
      const expected = new Map<number, string>();
      for (const seq of seqs) {
        const text = body.get(match, seq) as string;
        expected.set(seq, text.includes('\u0001') ? text : (any.get(match, seq) as string));
      }
      expect(seqs.length).toBeGreaterThan(3);
      expect(store.snippets(match, asked), text).toEqual(expected);
    }
    expect(store.snippets('"cache"', [])).toEqual(new Map());
  });
});

describe('SearchDocumentStore.documents', () => {
  it('reads each row as document() does, a deleted one as undefined, a re-indexed one with its new content', () => {
    const { db, store } = corpus();
    const seqs = (
      db.prepare('SELECT seq FROM search_documents ORDER BY seq').pluck().all() as number[]
    ).filter((_, i) => i % 37 === 0);
    const gone = 1_000_000;
    expect(store.documents([...seqs, gone])).toEqual(
      new Map([...seqs, gone].map((seq) => [seq, store.document(seq)] as const)),
    );

    const first = store.document(seqs[0]!)!;
    store.upsert(
      {
        id: 'doc_new',
        owner: 'owner_a',
        collection: first.collection,
        url: first.url,
        site: 'a.example',
        title: 'A title written again',
        headings: 'New heading',
        body: 'A body written again',
        summary: 'Written again.',
        indexedAt: '2026-11-26T00:00:00.000Z',
      },
      'run_2',
    );
    expect(store.documents([seqs[0]!]).get(seqs[0]!)).toMatchObject({
      id: first.id,
      title: 'A title written again',
      headings: 'New heading',
      lead: 'A body written again',
      summary: 'Written again.',
    });
    expect(store.documents([])).toEqual(new Map());
  });
});
