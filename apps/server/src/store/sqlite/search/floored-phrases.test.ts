import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateSearchIndex } from './schema.js';
import { SearchDocumentStore } from './search-document-store.js';

let seq = 0;
function write(
  store: SearchDocumentStore,
  body: string,
  runId: string,
  url = `https://d.example/${seq}`,
): void {
  seq += 1;
  store.upsert(
    {
      id: `doc_${seq}`,
      owner: 'o',
      collection: 'c',
      url,
      site: 'd.example',
      title: null,
      headings: '',
      body,
      summary: '',
      indexedAt: '2026-01-01T00:00:00.000Z',
    },
    runId,
  );
}

function newStore(db = new Database(':memory:')): { db: Database.Database; store: SearchDocumentStore } {
  migrateSearchIndex(db);
  return { db, store: new SearchDocumentStore(db) };
}

/** What FTS5 itself says: the phrase's bm25() alone is its idf floor (1e-6 × at most k1 + 1). */
function flooredByFts5(db: Database.Database, phrase: string): boolean | null {
  const best = db
    .prepare('SELECT -bm25(search_fts) AS s FROM search_fts WHERE search_fts MATCH ? ORDER BY s DESC LIMIT 1')
    .pluck()
    .get(phrase) as number | undefined;
  return best === undefined ? null : best < 1e-5;
}

const PHRASES = ['"alpha"', '"beta"', '"gamma"*', '"alpha beta"'];

describe('FlooredPhrases (SearchDocumentStore.flooredPhrases)', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("says a phrase is floored exactly when FTS5's bm25() gives it the idf floor", () => {
    const { db, store } = newStore();
    // alpha in 6 of 10 (floored), beta in 5 of 10 (2n = N: floored), gamma… in 4 (not), "alpha beta" in 2.
    for (let i = 0; i < 10; i += 1) {
      const words = [
        i < 6 ? 'alpha' : 'x',
        i >= 4 && i < 9 ? 'beta' : 'y',
        i < 3 || i === 9 ? 'gammas' : 'z',
      ];
      write(store, `${words.join(' ')} ${i === 4 || i === 5 ? 'alpha beta' : ''}`, 'run_1');
    }
    const floored = store.flooredPhrases();
    expect(PHRASES.map((p) => floored(p))).toEqual([true, true, false, false]);
    for (const p of PHRASES) expect(floored(p)).toBe(flooredByFts5(db, p));
  });

  it('stays exact while documents are written and deleted, counting again only past its margin', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.record({
              kind: fc.constant('write' as const),
              words: fc.subarray(['alpha', 'beta', 'gammas']),
            }),
            fc.record({ kind: fc.constant('remove' as const), run: fc.integer({ min: 0, max: 3 }) }),
          ),
          { minLength: 1, maxLength: 60 },
        ),
        (ops) => {
          const { db, store } = newStore();
          for (const [i, op] of ops.entries()) {
            if (op.kind === 'write') write(store, `${op.words.join(' ')} filler`, `run_${i % 4}`);
            else store.removeRun(`run_${op.run}`);
            const floored = store.flooredPhrases();
            for (const p of PHRASES) {
              const fts5 = flooredByFts5(db, p);
              // A phrase no document holds is never in a ranking's rows; only held ones are compared.
              if (fts5 !== null) expect(floored(p)).toBe(fts5);
            }
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('forgets its counts when another connection commits (PRAGMA data_version)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'floored-'));
    dirs.push(dir);
    const file = join(dir, 'search.db');
    const { store } = newStore(new Database(file));
    const other = newStore(new Database(file)).store;
    for (let i = 0; i < 4; i += 1) write(store, i < 2 ? 'alpha' : 'beta', 'run_1');
    expect(store.flooredPhrases()('"alpha"')).toBe(true);
    // Six more documents without alpha, written through the other connection: 2 of 10 hold it.
    for (let i = 0; i < 6; i += 1) write(other, 'beta', 'run_2');
    expect(store.flooredPhrases()('"alpha"')).toBe(false);
  });
});
