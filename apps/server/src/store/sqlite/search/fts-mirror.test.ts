import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { allClausesOf, matchOf, parseSearchQuery, rankingOf } from '../../../search/query-parser.js';
import { SqliteSearchIndex } from '../../../search/sqlite-search-index.js';
import { parseExpression } from './fts-mirror.js';
import { migrateSearchIndex } from './schema.js';
import { type Bm25Weights, type MatchQuery, SearchDocumentStore } from './search-document-store.js';

// The in-memory first stage (fts-mirror.ts) against FTS5 itself on the same database: a store
// with the copy and one without answer every first-stage statement identically (rows, order and
// scores to the last bit), and the copy never answers for a database it was not built from.

const WORDS = [
  'branch',
  'branches',
  'branching',
  'commit',
  'commits',
  'merge',
  'rebase',
  'remote',
  'file',
  'files',
  'delete',
  'remove',
  'list',
  'of',
  'the',
  'a',
  'results',
  'naïve',
  'café',
  'node',
  'js',
  'config',
  'configure',
  'configuration',
  'x1',
  '2026',
  'Ünïcode',
  'straße',
];

/** A deterministic pseudo-random source (tests must not flake). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function text(rnd: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i += 1) {
    const word = WORDS[Math.floor(rnd() * rnd() * WORDS.length)]!;
    // Punctuation between some words: "node.js" is two tokens, one phrase.
    out.push(rnd() < 0.1 ? `${word}.${WORDS[Math.floor(rnd() * WORDS.length)]!}` : word);
  }
  return out.join(rnd() < 0.5 ? ' ' : ', ');
}

let written = 0;
function write(
  store: SearchDocumentStore,
  rnd: () => number,
  owner: string,
  collection: string,
  url?: string,
) {
  written += 1;
  store.upsert(
    {
      id: `doc_${written}`,
      owner,
      collection,
      url: url ?? `https://d.example/${written}`,
      site: 'd.example',
      title: rnd() < 0.1 ? null : text(rnd, 1 + Math.floor(rnd() * 4)),
      headings: text(rnd, Math.floor(rnd() * 8)),
      body: text(rnd, Math.floor(rnd() * 300)),
      summary: text(rnd, Math.floor(rnd() * 12)),
      indexedAt: '2026-01-01T00:00:00.000Z',
    },
    `run_${written % 3}`,
  );
}

const mirrorOn = { budgetBytes: 64 * 1024 * 1024, delayMs: 60_000 };

function stores(db = new Database(':memory:')) {
  migrateSearchIndex(db);
  return { db, fts: new SearchDocumentStore(db), mem: new SearchDocumentStore(db, mirrorOn) };
}

const QUESTIONS = [
  'delete a branch',
  'list of results',
  'merge commits into the remote branch',
  'configur',
  'node.js config files',
  '"rebase the"',
  '"list of"* results',
  '+commit -merge branch',
  'files -"remote branch"',
  '+"delete a branch" remove',
  'naive cafe',
  'Ünïcode STRASSE',
  'x1 2026',
  'branch*',
  'the of a',
  'missingword branch',
  '"missingword"',
  'remove the file from the remote',
  'list -branch -commit',
];

function expressions(question: string): string[] {
  const parsed = parseSearchQuery(question);
  return [
    matchOf(parsed),
    matchOf(parsed, true),
    allClausesOf(parsed),
    rankingOf(parsed)?.expression ?? null,
    ...parsed.clauses.map((c) => c.expression),
  ].filter((e): e is string => e !== null);
}

const WEIGHTS: Bm25Weights[] = [
  { title: 10, headings: 4, body: 1 },
  { title: 10, headings: 4, body: 4 },
  { title: 1, headings: 1, body: 1 },
  { title: 0, headings: 3, body: 2 },
];

function expectSameAnswers(
  fts: SearchDocumentStore,
  mem: SearchDocumentStore,
  owner: string,
  collection: string,
) {
  let answered = 0;
  for (const question of QUESTIONS)
    for (const match of expressions(question))
      for (const weights of WEIGHTS)
        for (const index of ['body', 'fields'] as const)
          for (const limit of [1, 40]) {
            const query: MatchQuery = { owner, collection, match, weights, limit, index };
            const expected = fts.findMatches(query);
            expect(mem.mirror.findMatches(query), `${match} ${index} ${JSON.stringify(weights)}`).toEqual(
              expected,
            );
            answered += 1;
          }
  for (const question of QUESTIONS)
    for (const match of expressions(question)) {
      const query: MatchQuery = { owner, collection, match, weights: WEIGHTS[0]!, limit: 5 };
      const asked = fts.findMatches({ ...query, limit: 60 }).map((r) => r.seq);
      const seqs = [...asked.filter((_, i) => i % 3 === 0), 999_999, 1];
      const expected = fts.findMatchesScoring(query, seqs, 0);
      const mirrored = mem.mirror.findMatchesScoring(query, seqs);
      expect(mirrored?.rows, match).toEqual(expected.rows);
      // Every asked page the expression matches has its score: those FTS5 gave, and the others as
      // scoresOf gives them.
      expect(mirrored?.scores, match).toEqual(fts.scoresOf(match, seqs, WEIGHTS[0]!));
      for (const [seq, score] of expected.scores) expect(mirrored?.scores.get(seq)).toBe(score);
      expect(mem.mirror.scoresOf(match, seqs, WEIGHTS[1]!), match).toEqual(
        fts.scoresOf(match, seqs, WEIGHTS[1]!),
      );
      for (const atMost of [1, 3, 1000])
        expect(mem.mirror.countMatches(match, atMost), match).toBe(fts.countMatches(match, atMost));
    }
  expect(answered).toBeGreaterThan(1000);
}

describe('the first stage in memory (fts-mirror)', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('answers every first-stage statement exactly as FTS5: rows, order and bm25() scores', async () => {
    const { fts, mem } = stores();
    const rnd = random(7);
    for (let i = 0; i < 300; i += 1) write(fts, rnd, i % 7 === 0 ? 'other' : 'o', i % 5 === 0 ? 'd' : 'c');
    expect(await mem.mirror.ready()).toBe(true);
    expectSameAnswers(fts, mem, 'o', 'c');
    expectSameAnswers(fts, mem, 'o', 'd');
    expectSameAnswers(fts, mem, 'other', 'c');
    // The store answers through it.
    const query: MatchQuery = {
      owner: 'o',
      collection: 'c',
      match: '"branch"',
      weights: WEIGHTS[0]!,
      limit: 3,
    };
    expect(mem.findMatches(query)).toEqual(fts.findMatches(query));
  });

  it('keeps each owner and collection to itself', async () => {
    const { fts, mem } = stores();
    const rnd = random(11);
    for (let i = 0; i < 60; i += 1) write(fts, rnd, i % 2 === 0 ? 'alice' : 'bob', 'c');
    expect(await mem.mirror.ready()).toBe(true);
    const query = (owner: string, collection: string): MatchQuery => ({
      owner,
      collection,
      match: '("branch" OR "commit" OR "file" OR "the")',
      weights: WEIGHTS[0]!,
      limit: 100,
    });
    const alice = mem.mirror.findMatches(query('alice', 'c'))!;
    const bob = mem.mirror.findMatches(query('bob', 'c'))!;
    expect(alice.length).toBeGreaterThan(0);
    expect(bob.length).toBeGreaterThan(0);
    expect(alice.some((a) => bob.some((b) => b.seq === a.seq))).toBe(false);
    expect(alice).toEqual(fts.findMatches(query('alice', 'c')));
    expect(mem.mirror.findMatches(query('carol', 'c'))).toEqual([]);
    expect(mem.mirror.findMatches(query('alice', 'nothing'))).toEqual([]);
  });

  it('is dropped by every write through its connection and answers again, exactly, once rebuilt', async () => {
    const { fts, mem } = stores();
    const rnd = random(3);
    for (let i = 0; i < 80; i += 1) write(mem, rnd, 'o', 'c', `https://d.example/${i}`);
    expect(await mem.mirror.ready()).toBe(true);
    const query: MatchQuery = {
      owner: 'o',
      collection: 'c',
      match: '("branch" OR "commit" OR "delete a")',
      weights: WEIGHTS[0]!,
      limit: 10,
    };
    // Re-indexing a URL (new words, new lengths): the copy answers no more; FTS5 does.
    write(mem, random(99), 'o', 'c', 'https://d.example/5');
    expect(mem.mirror.findMatches(query)).toBeNull();
    expect(mem.findMatches(query)).toEqual(fts.findMatches(query));
    expect(await mem.mirror.ready()).toBe(true);
    expect(mem.mirror.findMatches(query)).toEqual(fts.findMatches(query));
    // A run removed (its documents deleted).
    const before = fts.findMatches(query);
    expect(mem.removeRun('run_1')).toBeGreaterThan(0);
    expect(mem.mirror.findMatches(query)).toBeNull();
    expect(mem.findMatches(query)).not.toEqual(before);
    expect(mem.findMatches(query)).toEqual(fts.findMatches(query));
    expect(await mem.mirror.ready()).toBe(true);
    expectSameAnswers(fts, mem, 'o', 'c');
    // A write by another store on the same connection counts too (data_version does not move for
    // a connection's own commits).
    write(fts, random(41), 'o', 'c');
    expect(mem.mirror.findMatches(query)).toBeNull();
    expect(mem.findMatches(query)).toEqual(fts.findMatches(query));
  });

  it("keeps phrases' hits across searches, within an eighth of its budget, and lets them go with the copy", async () => {
    const { db, fts, mem } = stores();
    const rnd = random(5);
    for (let i = 0; i < 120; i += 1) write(mem, rnd, 'o', 'c', `https://d.example/${i}`);
    expect(await mem.mirror.ready()).toBe(true);
    const query: MatchQuery = {
      owner: 'o',
      collection: 'c',
      match: '("branch" OR "commit"* OR "delete a")',
      weights: WEIGHTS[0]!,
      limit: 10,
    };
    mem.mirror.beginSearch();
    expect(mem.mirror.findMatches(query)).toEqual(fts.findMatches(query));
    const kept = mem.mirror.hitsBytes;
    expect(kept).toBeGreaterThan(0);
    // The next search finds them kept, and answers the same.
    mem.mirror.beginSearch();
    expect(mem.mirror.hitsBytes).toBe(kept);
    expect(mem.mirror.findMatches(query)).toEqual(fts.findMatches(query));
    expect(mem.mirror.hitsBytes).toBe(kept);
    // A write drops them with the copy; the rebuilt copy's hits are its own.
    write(mem, random(77), 'o', 'c', 'https://d.example/7');
    expect(mem.mirror.findMatches(query)).toBeNull();
    expect(mem.mirror.hitsBytes).toBe(0);
    expect(await mem.mirror.ready()).toBe(true);
    expect(mem.mirror.findMatches(query)).toEqual(fts.findMatches(query));
    expectSameAnswers(fts, mem, 'o', 'c');
    // Within an eighth of the budget: the least recently used let go first.
    const copyBytes = mem.mirror.bytes;
    const tight = new SearchDocumentStore(db, { budgetBytes: copyBytes + 16_384, delayMs: 60_000 });
    expect(await tight.mirror.ready()).toBe(true);
    for (const question of QUESTIONS)
      for (const match of expressions(question)) {
        tight.mirror.beginSearch();
        const asked = { ...query, match };
        expect(tight.mirror.findMatches(asked), match).toEqual(fts.findMatches(asked));
        expect(tight.mirror.hitsBytes).toBeLessThanOrEqual((copyBytes + 16_384) / 8);
      }
    expect(tight.mirror.hitsBytes).toBeGreaterThan(0);
  });

  it("never answers for another connection's commits (the batch write thread's, another process's)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fts-mirror-'));
    dirs.push(dir);
    const file = join(dir, 'search.sqlite');
    const { db, fts, mem } = stores(new Database(file));
    db.pragma('journal_mode = WAL');
    const rnd = random(5);
    for (let i = 0; i < 50; i += 1) write(fts, rnd, 'o', 'c');
    expect(await mem.mirror.ready()).toBe(true);
    const other = new Database(file);
    const writer = new SearchDocumentStore(other);
    const query: MatchQuery = {
      owner: 'o',
      collection: 'c',
      match: '"branch"',
      weights: WEIGHTS[0]!,
      limit: 100,
    };
    const before = mem.findMatches(query);
    for (let i = 0; i < 20; i += 1) write(writer, rnd, 'o', 'c');
    expect(mem.mirror.findMatches(query)).toBeNull();
    expect(mem.findMatches(query)).not.toEqual(before);
    expect(mem.findMatches(query)).toEqual(fts.findMatches(query));
    expect(await mem.mirror.ready()).toBe(true);
    expect(mem.mirror.findMatches(query)).toEqual(fts.findMatches(query));
    other.close();
    mem.mirror.close();
    db.close();
  });

  it('gives up a build that a write interrupts, and builds without holding the event loop', async () => {
    const { fts, mem } = stores();
    const rnd = random(17);
    for (let i = 0; i < 400; i += 1) write(fts, rnd, 'o', 'c');
    let turns = 0;
    const ticking = setInterval(() => {
      turns += 1;
    }, 0);
    // A write during the build: that copy is thrown away (the database it read changed).
    const building = mem.mirror.ready();
    await new Promise((resolve) => setImmediate(resolve));
    write(mem, rnd, 'o', 'c');
    expect(await building).toBe(false);
    expect(await mem.mirror.ready()).toBe(true);
    clearInterval(ticking);
    expect(turns).toBeGreaterThan(0);
    expect(mem.mirror.lastBuild?.longestSliceMs).toBeLessThan(1_000);
    expectSameAnswers(fts, mem, 'o', 'c');
  });

  it('builds for searches, not for writes, and waits twice as long after each build a write interrupted', async () => {
    const { db, fts } = stores();
    const rnd = random(29);
    const lazy = new SearchDocumentStore(db, { budgetBytes: 64 * 1024 * 1024, delayMs: 20 });
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    // Writes alone (a crawl nobody searches) build nothing, however long they pause.
    for (let i = 0; i < 5; i += 1) write(lazy, rnd, 'o', 'c');
    await sleep(1_000);
    expect(lazy.mirror.lastBuild).toBeNull();
    // A search wants one: built once writes have paused.
    lazy.mirror.beginSearch();
    for (let waited = 0; lazy.mirror.lastBuild === null && waited < 10_000; waited += 20) await sleep(20);
    expect(lazy.mirror.bytes).toBeGreaterThan(0);
    // A write during a build (long enough to take several slices): the next one waits for a pause
    // twice as long, until a build finishes.
    for (let i = 0; i < 400; i += 1) write(fts, rnd, 'o', 'c');
    expect(lazy.mirror.waitMs).toBe(20);
    write(lazy, rnd, 'o', 'c');
    const building = lazy.mirror.ready();
    await new Promise((resolve) => setImmediate(resolve));
    write(lazy, rnd, 'o', 'c');
    expect(await building).toBe(false);
    expect(lazy.mirror.waitMs).toBe(40);
    expect(await lazy.mirror.ready()).toBe(true);
    expect(lazy.mirror.waitMs).toBe(20);
    lazy.mirror.close();
  });

  it('leaves to FTS5 what it does not read: filters, fractional weights, other syntax, a budget too small', async () => {
    const { db, fts, mem } = stores();
    const rnd = random(23);
    for (let i = 0; i < 30; i += 1) write(fts, rnd, 'o', 'c');
    expect(await mem.mirror.ready()).toBe(true);
    const query: MatchQuery = {
      owner: 'o',
      collection: 'c',
      match: '"branch"',
      weights: WEIGHTS[0]!,
      limit: 5,
    };
    expect(mem.mirror.findMatches(query)).not.toBeNull();
    expect(mem.mirror.findMatches({ ...query, urlPrefix: 'https://d.example/1' })).toBeNull();
    expect(mem.mirror.findMatches({ ...query, site: 'd.example' })).toBeNull();
    expect(mem.mirror.findMatches({ ...query, weights: { title: 2.5, headings: 1, body: 1 } })).toBeNull();
    expect(mem.mirror.findMatches({ ...query, match: 'branch' })).toBeNull();
    expect(mem.mirror.findMatches({ ...query, match: '"branch" "commit"' })).toBeNull();
    expect(mem.mirror.findMatches({ ...query, match: '"branch" AND "commit" OR "file"' })).toBeNull();
    expect(mem.mirror.findMatches({ ...query, match: '"branch" NOT ("commit" AND "file")' })).toBeNull();
    // No token at all in a phrase: FTS5 decides what it means.
    expect(mem.mirror.findMatches({ ...query, match: '"…"' })).toBeNull();
    // The store still answers, through FTS5.
    expect(mem.findMatches({ ...query, urlPrefix: 'https://d.example/1' })).toEqual(
      fts.findMatches({ ...query, urlPrefix: 'https://d.example/1' }),
    );
    const small = new SearchDocumentStore(db, { budgetBytes: 1_000, delayMs: 60_000 });
    expect(await small.mirror.ready()).toBe(false);
    expect(small.mirror.findMatches(query)).toBeNull();
    const off = new SearchDocumentStore(db, { budgetBytes: 0, delayMs: 0 });
    expect(await off.mirror.ready()).toBe(false);
  });

  it('reads the expressions the search writes', () => {
    expect(parseExpression('"a b"* AND ("c" OR "d")')?.phrases).toEqual([
      { text: 'a b', prefix: true },
      { text: 'c', prefix: false },
      { text: 'd', prefix: false },
    ]);
    expect(parseExpression('("a" AND "b") NOT ("c" OR "d")')?.root.kind).toBe('not');
    expect(parseExpression('"a" OR "b" AND "c"')).toBeNull();
    expect(parseExpression('"a" NOT "b" NOT "c"')).toBeNull();
    expect(parseExpression('"a')).toBeNull();
    expect(parseExpression('NEAR("a" "b")')).toBeNull();
    expect(parseExpression('title:"a"')).toBeNull();
  });
});

describe('SqliteSearchIndex with its first stage in memory', () => {
  it('answers every page of every query as with FTS5 alone: ids, scores, snippets, cursors', async () => {
    const db = new Database(':memory:');
    const fts = new SqliteSearchIndex(db, { mirror: { budgetBytes: 0 } });
    const mem = new SqliteSearchIndex(db, { mirror: { budgetBytes: 64 * 1024 * 1024, delayMs: 60_000 } });
    const rnd = random(31);
    for (let i = 0; i < 250; i += 1)
      fts.upsert({
        owner: i % 4 === 0 ? 'other' : 'o',
        collection: 'docs',
        url: `https://d.example/p/${i}`,
        title: text(rnd, 1 + Math.floor(rnd() * 4)),
        headings: [text(rnd, 3), text(rnd, 2)],
        body: text(rnd, 20 + Math.floor(rnd() * 400)),
        runId: `run_${i % 3}`,
      });
    expect(await mem.mirrorReady()).toBe(true);
    for (const question of QUESTIONS)
      for (const owner of ['o', 'other']) {
        const params = { query: question, collection: 'docs', limit: 7 };
        const expected = fts.search(owner, params);
        expect(mem.search(owner, params), question).toEqual(expected);
        if (expected.next_cursor !== null) {
          const next = { ...params, cursor: expected.next_cursor };
          expect(mem.search(owner, next), question).toEqual(fts.search(owner, next));
        }
      }
    mem.close();
    fts.close();
    db.close();
  });
});
