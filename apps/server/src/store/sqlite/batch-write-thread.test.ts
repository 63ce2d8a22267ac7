import { SearchRequest } from '@webdata/contract';
import type BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { itemOutcome, queuedCrawlRun } from '../item-outcome.test-support.js';
import type { ClaimedItem, CompletedItem } from '../store.js';
import { OFF_THREAD_BATCH_CHARS, type SqliteStore } from './sqlite-store.js';
import {
  openStoreBesideAnotherConnection,
  type StoreBesideAnotherConnection,
} from './two-connections.test-support.js';

let files: StoreBesideAnotherConnection;
let store: SqliteStore;
let other: BetterSqlite3.Database;

beforeEach(() => {
  files = openStoreBesideAnotherConnection('webdata-write-thread-');
  ({ store, other } = files);
});

afterEach(() => files.close());

/** A finished page of `chars` characters of text (in two formats, and indexed), words most of them different. */
function finished(item: ClaimedItem, runId: string, chars: number): CompletedItem {
  const words: string[] = [];
  for (let i = 0, length = 0; length < chars; i += 1, length += 8)
    words.push(`w${(i * 7919) % 100_003}`.padEnd(7));
  const text = `${words.join(' ')} lastword`;
  return {
    item,
    outcome: {
      ...itemOutcome('succeeded', { contents: { markdown: `# Big\n\n${text}`, text } }),
      document: { owner: 'o', collection: 'c', url: item.url, title: 'Big', headings: [], body: text, runId },
    },
  };
}

describe('a large batch of finished pages', () => {
  it('is written by the write thread while the main thread goes on reading, and is whole once it resolves', async () => {
    const runId = await queuedCrawlRun(store, 'o', 2);
    const [item] = (await store.claimItems('w', 1, 60_000)) as ClaimedItem[];
    const page = finished(item!, runId, OFF_THREAD_BATCH_CHARS / 2);
    const onMainThread = vi.spyOn(store, 'writeCompletedItems');
    // Another connection holds the write lock: the thread's transaction cannot commit before it lets go.
    other.exec('BEGIN IMMEDIATE');
    const events: string[] = [];
    const written = store.completeItems([page]).then((result) => {
      events.push('written');
      return result;
    });
    // Meanwhile the main thread answers: the run, its item still running, no result yet.
    const during = await store.getRun('o', runId);
    expect(during!.run.stats).toMatchObject({ running: 1, succeeded: 0 });
    expect((await store.listResults('o', runId, { limit: 10 }))!.data).toEqual([]);
    events.push('read while writing');
    other.exec('COMMIT');
    expect(await written).toEqual([true]);
    expect(events).toEqual(['read while writing', 'written']);
    expect(onMainThread).not.toHaveBeenCalled();
    expect(store.db.inTransaction).toBe(false);

    // Committed whole, and seen by the main connection: the result, its formats, its search document.
    expect((await store.getRun('o', runId))!.run.stats).toMatchObject({ running: 0, succeeded: 1 });
    const [result] = (await store.listResults('o', runId, { limit: 10 }))!.data;
    expect(await store.getContent(result!.id, 'text')).toBe(page.outcome.contents.text);
    expect(await store.getContent(result!.id, 'markdown')).toBe(page.outcome.contents.markdown);
    const hits = await store.search.search('o', SearchRequest.parse({ collection: 'c', query: 'lastword' }));
    expect(hits.data.map((hit) => hit.url)).toEqual([item!.url]);
  });

  it('below the threshold is written on the main connection, as before', async () => {
    const runId = await queuedCrawlRun(store, 'o', 1);
    const [item] = (await store.claimItems('w', 1, 60_000)) as ClaimedItem[];
    const onMainThread = vi.spyOn(store, 'writeCompletedItems');
    expect(await store.completeItems([finished(item!, runId, 10_000)])).toEqual([true]);
    expect(onMainThread).toHaveBeenCalledTimes(1);
  });

  it('answers unavailable when another connection keeps the lock, and writes nothing', async () => {
    const runId = await queuedCrawlRun(store, 'o', 1);
    const [item] = (await store.claimItems('w', 1, 60_000)) as ClaimedItem[];
    other.exec('BEGIN IMMEDIATE');
    const error = await store.completeItems([finished(item!, runId, OFF_THREAD_BATCH_CHARS)]).catch((e) => e);
    expect(error).toMatchObject({ code: 'unavailable' });
    other.exec('ROLLBACK');
    expect((await store.getRun('o', runId))!.run.stats).toMatchObject({ running: 1, succeeded: 0 });
    // The item is still leased to its worker, which writes it once the lock is gone.
    expect(await store.completeItems([finished(item!, runId, OFF_THREAD_BATCH_CHARS)])).toEqual([true]);
    // A hang guard, not a speed bound: 7.5 s at a load of 7, past 20 s in a CI run beside other builds.
  }, 120_000);
});
