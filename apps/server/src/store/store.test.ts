import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RUN_PARAMS, SearchRequest } from '@webdata/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DirectoryBlobStore } from './blobs/directory-blob-store.js';
import { CLAIM_LOOKAHEAD } from './claim-order.js';
import { itemOutcome } from './item-outcome.test-support.js';
import { PostgresStore } from './postgres/postgres-store.js';
import {
  postgresForTests,
  startThrowawayPostgres,
  type ThrowawayPostgres,
} from './postgres/throwaway-postgres.test-support.js';
import { SqliteStore } from './sqlite/sqlite-store.js';
import { ActiveRunLimitError, type ClaimedItem, type ItemOutcome, type Store } from './store.js';

/**
 * One suite, every store: the embedded SQLite store and the PostgreSQL store
 * (a throwaway cluster on 127.0.0.1, a fresh database per test) must behave
 * the same.
 */
let cluster: ThrowawayPostgres | null = null;
const scratch = mkdtempSync(join(tmpdir(), 'webdata-store-'));
beforeAll(async () => {
  if (postgresForTests()) cluster = await startThrowawayPostgres();
});
afterAll(async () => {
  await cluster?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

const stores: [string, () => Promise<Store>][] = [
  ['SqliteStore', async () => new SqliteStore(':memory:')],
  // A file, as the server opens it: large batches are written by its write thread (another connection).
  [
    'SqliteStore (file)',
    async () => new SqliteStore(join(mkdtempSync(join(scratch, 'sqlite-')), 'webdata.sqlite')),
  ],
  [
    'PostgresStore',
    async () => {
      const url = await cluster!.createDatabase();
      const pg = new PostgresStore({
        url,
        blobs: new DirectoryBlobStore(mkdtempSync(join(scratch, 'blobs-'))),
      });
      await pg.open();
      return pg;
    },
  ],
];

let store: Store;
afterEach(() => store?.close());

const OWNER = 'own_test';

async function crawlRun(urls: string[], owner = OWNER) {
  const { run } = await store.createRun({
    owner,
    type: 'crawl',
    urls,
    params: RUN_PARAMS.crawl.parse({ limit: 10 }),
    items: urls.map((url) => ({ url, key: url, depth: 0 })),
  });
  return run.run.id;
}

/** About `chars` characters of words, most of them different (an FTS index has terms to write). */
function largeText(chars: number): string {
  const words: string[] = [];
  for (let i = 0, length = 0; length < chars; i += 1) {
    const word = `w${(i * 7919) % 100_003}`;
    words.push(word);
    length += word.length + 1;
  }
  return words.join(' ');
}

const found = (url: string) => ({ url, key: url, depth: 1, parentUrl: 'https://s.example/' });

/** A crawl of a page and the page it redirects to, the first finished (with `extra`): the second is its alias. */
async function finishRedirect(extra: Partial<ItemOutcome> = {}) {
  const runId = await crawlRun(['https://s.example/redirect', 'https://s.example/target']);
  const [redirect] = await store.claimItems('w', 1, 60_000);
  await store.completeItem(redirect as ClaimedItem, {
    ...itemOutcome('succeeded'),
    aliases: ['https://s.example/target'],
    ...extra,
  });
  return (await store.getRun(OWNER, runId))!.run;
}

describe.each(stores)('%s work items', (name, makeStore) => {
  if (name === 'PostgresStore' && !postgresForTests()) return;
  it('writes an outcome only while the lease is held, and each result once', async () => {
    store = await makeStore();
    const runId = await crawlRun(['https://s.example/']);
    const [item] = await store.claimItems('w1', 5, 60_000);
    expect((await store.getRun(OWNER, runId))?.run.status).toBe('running');
    // Another process's start requeues it (lease lost): the first worker's late write is refused.
    expect(await store.requeueInterrupted({ all: true })).toEqual({ requeued: 1, crashed: [] });
    expect(await store.completeItem(item as ClaimedItem, itemOutcome('succeeded'))).toBe(false);
    const [again] = await store.claimItems('w2', 5, 60_000);
    expect(await store.completeItem(again as ClaimedItem, itemOutcome('succeeded'))).toBe(true);
    expect(await store.completeItem(again as ClaimedItem, itemOutcome('succeeded'))).toBe(false);
    const results = await store.listResults(OWNER, runId, { limit: 10 });
    expect(results?.data).toHaveLength(1);
    expect((await store.getRun(OWNER, runId))?.run).toMatchObject({
      status: 'completed',
      stats: { succeeded: 1 },
    });
  });

  it("passes over a run's items at its waiting origins, not its other hosts' items, until they wait no more", async () => {
    store = await makeStore();
    const waiting = await crawlRun([
      'https://polite.example/1',
      'https://polite.example/2',
      'https://quick.example/3',
      'https://polite.example:8443/4',
    ]);
    const other = await crawlRun(['https://polite.example/5', 'https://s.example/6']);
    const origins = new Map([[waiting, new Set(['https://polite.example'])]]);
    const claimed = await store.claimItems('w1', 5, 60_000, origins);
    expect(claimed.map((item) => item.url).sort()).toEqual([
      'https://polite.example/5', // another run's page of that origin: its own run does not wait
      'https://polite.example:8443/4', // another origin
      'https://quick.example/3',
      'https://s.example/6',
    ]);
    expect(claimed.filter((item) => item.runId === other)).toHaveLength(2);
    expect(await store.claimItems('w1', 5, 60_000, origins)).toEqual([]);
    const again = await store.claimItems('w1', 5, 60_000, new Map());
    expect(again.map((item) => item.url).sort()).toEqual([
      'https://polite.example/1',
      'https://polite.example/2',
    ]);
  });

  it('looks a bounded way past the items at waiting origins', async () => {
    store = await makeStore();
    const urls = Array.from({ length: CLAIM_LOOKAHEAD + 3 }, (_, i) => `https://polite.example/${i}`);
    const runId = await crawlRun([...urls, 'https://quick.example/far']);
    const origins = new Map([[runId, new Set(['https://polite.example'])]]);
    // The other host's page is further than a claim looks: none this time (a run of one polite host
    // does not read its whole queue at each claim); once the polite pages are claimed, it comes.
    expect(await store.claimItems('w1', 1, 60_000, origins)).toEqual([]);
    expect(await store.claimItems('w1', urls.length, 60_000)).toHaveLength(urls.length);
    expect((await store.claimItems('w1', 1, 60_000, origins)).map((item) => item.url)).toEqual([
      'https://quick.example/far',
    ]);
  });

  it('writes a batch in one call, each item under its own lease: a lost lease leaves only that one out', async () => {
    store = await makeStore();
    const urls = ['https://s.example/a', 'https://s.example/b', 'https://s.example/c'];
    const runId = await crawlRun(urls);
    const claimed = (await store.claimItems('w1', 5, 60_000)) as ClaimedItem[];
    expect(claimed).toHaveLength(3);
    // The middle item's lease is lost (put back in the queue) before the batch is written.
    const lost = claimed[1]!;
    await store.releaseItem(lost);
    const written = await store.completeItems(
      claimed.map((item) => ({
        item,
        outcome: {
          ...itemOutcome('succeeded'),
          discovered: [found(`${item.url}/next`)],
          document: {
            owner: OWNER,
            collection: 'c',
            url: item.url,
            title: item.url,
            headings: [],
            body: `page ${item.url}`,
            runId,
          },
        },
      })),
    );
    expect(written).toEqual([true, false, true]);
    const results = await store.listResults(OWNER, runId, { limit: 10 });
    expect(results?.data.map((r) => r.url).sort()).toEqual(['https://s.example/a', 'https://s.example/c']);
    // What the lost item found is not in the frontier; what the others found is, and so are their documents.
    const run = (await store.getRun(OWNER, runId))!.run;
    expect(run.stats).toMatchObject({ total: 5, succeeded: 2, queued: 3, running: 0 });
    const next = (await store.claimItems('w2', 10, 60_000)).map((item) => item.url).sort();
    expect(next).toEqual(['https://s.example/a/next', 'https://s.example/b', 'https://s.example/c/next']);
    const hits = await store.search.search(OWNER, SearchRequest.parse({ collection: 'c', query: 'page' }));
    expect(hits.data.map((hit) => hit.url).sort()).toEqual(['https://s.example/a', 'https://s.example/c']);
  });

  it('writes a batch of several MB whole: results, every format, links and search documents', async () => {
    store = await makeStore();
    const runId = await crawlRun(['https://s.example/a', 'https://s.example/b']);
    const items = (await store.claimItems('w', 2, 60_000)) as ClaimedItem[];
    // Over the thread's threshold (and its pieces) together: 2 pages of ~1.5 Mi characters in 3 formats.
    const body = (n: number) => `${n} ${largeText(1_500_000)} end${n}`;
    const written = await store.completeItems(
      items.map((item, n) => ({
        item,
        outcome: {
          ...itemOutcome('succeeded', {
            contents: { markdown: `# ${body(n)}`, html: `<p>${body(n)}</p>`, text: body(n) },
          }),
          discovered: [found(`${item.url}/next`)],
          document: {
            owner: OWNER,
            collection: 'c',
            url: item.url,
            title: item.url,
            headings: [],
            body: body(n),
            runId,
          },
        },
      })),
    );
    expect(written).toEqual([true, true]);
    const results = (await store.listResults(OWNER, runId, { limit: 10 }))!.data;
    expect(results.map((r) => r.url).sort()).toEqual(['https://s.example/a', 'https://s.example/b']);
    for (const result of results) {
      const n = items.findIndex((item) => item.url === result.url);
      expect(await store.getContent(result.id, 'text')).toBe(body(n));
      expect(await store.getContent(result.id, 'markdown')).toBe(`# ${body(n)}`);
      expect(await store.getContent(result.id, 'html')).toBe(`<p>${body(n)}</p>`);
    }
    expect((await store.getRun(OWNER, runId))!.run.stats).toMatchObject({
      total: 4,
      succeeded: 2,
      queued: 2,
    });
    const next = (await store.claimItems('w2', 10, 60_000)).map((item) => item.url).sort();
    expect(next).toEqual(['https://s.example/a/next', 'https://s.example/b/next']);
    const hits = await store.search.search(OWNER, SearchRequest.parse({ collection: 'c', query: 'end1' }));
    expect(hits.data.map((hit) => hit.url)).toEqual([items[1]!.url]);
    // A hang guard, not a speed bound: 4–11 s at a load of 7, and past 30 s in a CI run beside other
    // builds (about 12 M characters written and indexed).
  }, 120_000);

  it('adds discovered URLs once, up to the item limit, never ones known as another page', async () => {
    store = await makeStore();
    const runId = await crawlRun(['https://s.example/']);
    const [root] = await store.claimItems('w', 1, 60_000);
    await store.completeItem(root as ClaimedItem, {
      ...itemOutcome('succeeded'),
      discovered: ['a', 'b', 'a', 'c', 'd'].map((p) => found(`https://s.example/${p}`)),
      aliases: ['https://s.example/b'],
      itemLimit: 4,
    });
    const run = (await store.getRun(OWNER, runId))!.run;
    expect(run.stats.total).toBe(4);
    const claimed = await store.claimItems('w', 10, 60_000);
    expect(claimed.map((i) => i.url)).toEqual([
      'https://s.example/a',
      'https://s.example/c',
      'https://s.example/d',
    ]);
  });

  it('adds a link met again on later pages once, and what a lost lease found when another page finds it', async () => {
    store = await makeStore();
    const runId = await crawlRun(['https://s.example/']);
    const page = (item: ClaimedItem, links: string[], aliases: string[] = []) => ({
      item,
      outcome: { ...itemOutcome('succeeded'), discovered: links.map(found), aliases, itemLimit: 6 },
    });
    const [root] = (await store.claimItems('w', 1, 60_000)) as ClaimedItem[];
    await store.completeItems([
      page(root!, ['https://s.example/', 'https://s.example/a', 'https://s.example/b']),
    ]);
    const [a, b] = (await store.claimItems('w', 2, 60_000)) as ClaimedItem[];
    // b's lease is lost: the link only it found is not the run's, until a page that is written finds it.
    await store.releaseItem(b!);
    const links = ['https://s.example/', 'https://s.example/a', 'https://s.example/b'];
    expect(
      await store.completeItems([
        page(a!, [...links, 'https://s.example/c'], ['https://s.example/d']),
        page(b!, [...links, 'https://s.example/e']),
      ]),
    ).toEqual([true, false]);
    const [again] = (await store.claimItems('w', 1, 60_000)) as ClaimedItem[];
    expect(again!.url).toBe('https://s.example/b');
    await store.completeItems([
      page(again!, [...links, 'https://s.example/d', 'https://s.example/e', 'https://s.example/c']),
    ]);
    const next = (await store.claimItems('w', 10, 60_000)).map((item) => item.url);
    expect(next).toEqual(['https://s.example/c', 'https://s.example/e']);
    expect((await store.getRun(OWNER, runId))!.run.stats).toMatchObject({ total: 5, succeeded: 3 });
  });

  it('moves a waiting page found again by a shorter path to it, never to a longer one', async () => {
    store = await makeStore();
    await crawlRun(['https://s.example/']);
    const link = (url: string, from: ClaimedItem) => ({
      url,
      key: url,
      depth: from.depth + 1,
      parentUrl: from.url,
    });
    const page = (item: ClaimedItem, links: string[]) => ({
      item,
      outcome: { ...itemOutcome('succeeded'), discovered: links.map((url) => link(url, item)) },
    });
    const claim = async (n: number) => (await store.claimItems('w', n, 60_000)) as ClaimedItem[];
    const [root] = await claim(1);
    await store.completeItems([page(root!, ['https://s.example/a', 'https://s.example/b'])]);
    const [a] = await claim(1);
    await store.completeItems([page(a!, ['https://s.example/c'])]);
    const [b, c] = await claim(2);
    expect([b!.url, c!.url, c!.depth]).toEqual(['https://s.example/b', 'https://s.example/c', 2]);
    // c (depth 2) finishes first and finds d and e at depth 3; b (depth 1) then finds d at depth 2,
    // in a later batch, and e in the same batch as c, after c.
    await store.completeItems([page(c!, ['https://s.example/d', 'https://s.example/e'])]);
    await store.completeItems([page(b!, ['https://s.example/d'])]);
    const [d, e] = await claim(2);
    expect([d!.url, d!.depth, d!.parentUrl]).toEqual(['https://s.example/d', 2, 'https://s.example/b']);
    expect([e!.url, e!.depth, e!.parentUrl]).toEqual(['https://s.example/e', 3, 'https://s.example/c']);
    // Found again deeper (by d and e), or shorter once claimed: left as it is.
    await store.completeItems([
      page(d!, ['https://s.example/f']),
      page(e!, ['https://s.example/f', 'https://s.example/d']),
    ]);
    const [f] = await claim(1);
    expect([f!.url, f!.depth, f!.parentUrl]).toEqual(['https://s.example/f', 3, 'https://s.example/d']);
  });

  it('moves a waiting page to a shorter path found later in the same batch', async () => {
    store = await makeStore();
    await crawlRun(['https://s.example/']);
    const [root] = (await store.claimItems('w', 1, 60_000)) as ClaimedItem[];
    const deep = {
      url: 'https://s.example/x',
      key: 'https://s.example/x',
      depth: 4,
      parentUrl: 'https://s.example/deep',
    };
    await store.completeItems([
      {
        item: root!,
        outcome: { ...itemOutcome('succeeded'), discovered: [deep, found('https://s.example/x')] },
      },
    ]);
    const [x] = (await store.claimItems('w', 1, 60_000)) as ClaimedItem[];
    expect([x!.url, x!.depth, x!.parentUrl]).toEqual(['https://s.example/x', 1, 'https://s.example/']);
  });

  it('counts a dropped alias out of the item limit', async () => {
    store = await makeStore();
    const run = await finishRedirect({
      discovered: ['x', 'y'].map((p) => found(`https://s.example/${p}`)),
      itemLimit: 2,
    });
    expect(run.stats).toMatchObject({ total: 2, succeeded: 1, queued: 1 });
    const claimed = await store.claimItems('w', 10, 60_000);
    expect(claimed.map((i) => i.url)).toEqual(['https://s.example/x']);
  });

  it('drops a queued item for a URL a finished page turned out to be', async () => {
    store = await makeStore();
    const run = await finishRedirect();
    expect(run.status).toBe('completed');
    expect(run.stats).toMatchObject({ total: 1, succeeded: 1, queued: 0 });
  });

  it('retries only what did not succeed, replacing the failed result', async () => {
    store = await makeStore();
    const runId = await crawlRun(['https://s.example/ok', 'https://s.example/bad']);
    const items = await store.claimItems('w', 2, 60_000);
    await store.completeItem(items[0]!, itemOutcome('succeeded'));
    await store.completeItem(items[1]!, itemOutcome('failed'));
    expect((await store.getRun(OWNER, runId))?.run.status).toBe('incomplete');
    expect((await store.retryRun(OWNER, runId))?.run.status).toBe('queued');
    const retried = await store.claimItems('w', 5, 60_000);
    expect(retried.map((i) => i.url)).toEqual(['https://s.example/bad']);
    await store.completeItem(retried[0]!, itemOutcome('succeeded'));
    const results = (await store.listResults(OWNER, runId, { limit: 10 }))!.data;
    expect(results.map((r) => r.status)).toEqual(['succeeded', 'succeeded']);
    expect((await store.getRun(OWNER, runId))?.run.status).toBe('completed');
  });

  it('fails a page whose work started maxStarts times without ending; claims, hand-backs and a retry do not count', async () => {
    store = await makeStore();
    const poison = 'https://s.example/poison';
    const quiet = 'https://s.example/quiet';
    const runId = await crawlRun([poison, quiet]);
    const claimBoth = async (leaseMs: number) => {
      const claimed = await store.claimItems('w', 5, leaseMs);
      expect(claimed.map((item) => item.url)).toEqual([poison, quiet]);
      return claimed as [ClaimedItem, ClaimedItem];
    };
    // A hand-back (graceful shutdown) undoes its claim and its start, a lost lease's start cannot be written.
    const [handed, reserved] = await claimBoth(60_000);
    expect(await store.startItem(handed)).toBe(true);
    await store.releaseItem(handed);
    await store.releaseItem(reserved);
    expect(await store.startItem(handed)).toBe(false);
    // The process dies while it works on the poison page, three times: the quiet page was only claimed
    // (a reserve, a host's turn) each time. Starts are counted once a lease.
    for (let round = 1; round <= 3; round += 1) {
      const [page] = await claimBoth(1);
      expect(await store.startItem(page)).toBe(true);
      expect(await store.startItem(page)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 20));
      // The third death fails the poison page, by name; the quiet page goes back each time.
      expect(await store.requeueInterrupted({ all: round === 2, maxStarts: 3 })).toEqual({
        requeued: round < 3 ? 2 : 1,
        crashed: round < 3 ? [] : [{ runId, url: poison, starts: 3 }],
      });
    }
    // Claimed four times, never started: it runs on; the poison page failed, and the run ends as its items did.
    const [last] = await store.claimItems('w', 5, 60_000);
    expect(last?.url).toBe(quiet);
    expect(await store.completeItem(last!, itemOutcome('succeeded'))).toBe(true);
    const run = (await store.getRun(OWNER, runId))!.run;
    expect(run).toMatchObject({
      status: 'incomplete',
      stats: { succeeded: 1, failed: 1, queued: 0, running: 0 },
    });
    const results = (await store.listResults(OWNER, runId, { limit: 10 }))!.data;
    const failed = results.find((result) => result.url === poison)!;
    expect(failed).toMatchObject({ status: 'failed', http_status: null, has_screenshot: false });
    expect(failed.error?.code).toBe('crashed');
    expect(failed.error?.message).toMatch(/started 3 times/);

    // A retry starts the count again: one more death is not the end of it.
    expect((await store.retryRun(OWNER, runId))?.run.status).toBe('queued');
    const [retried] = (await store.claimItems('w', 5, 1)) as [ClaimedItem];
    expect(retried.url).toBe(poison);
    expect(await store.startItem(retried)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await store.requeueInterrupted({ all: false, maxStarts: 3 })).toEqual({
      requeued: 1,
      crashed: [],
    });
    expect((await store.getRun(OWNER, runId))!.run.stats).toMatchObject({ queued: 1, failed: 0 });
    const [again] = await store.claimItems('w', 5, 60_000);
    expect(await store.completeItem(again!, itemOutcome('succeeded'))).toBe(true);
    expect((await store.getRun(OWNER, runId))!.run.status).toBe('completed');
  });

  it('keeps runs apart by owner', async () => {
    store = await makeStore();
    const runId = await crawlRun(['https://s.example/']);
    expect(await store.getRun('own_other', runId)).toBeNull();
    expect(await store.cancelRun('own_other', runId)).toBeNull();
    expect(await store.deleteRun('own_other', runId)).toBe(false);
    expect(await store.getRun(OWNER, runId)).not.toBeNull();
  });
});

describe.each(stores)('%s claim order', (name, makeStore) => {
  if (name === 'PostgresStore' && !postgresForTests()) return;
  it('shares claims out between active runs, oldest items first within each', async () => {
    store = await makeStore();
    const big = await crawlRun(Array.from({ length: 10 }, (_, i) => `https://big.example/${i}`));
    const small = await crawlRun(['https://small.example/0', 'https://small.example/1']);
    const first = await store.claimItems('w', 4, 60_000);
    expect(first.filter((i) => i.runId === small)).toHaveLength(2);
    expect(first.filter((i) => i.runId === big).map((i) => i.url)).toEqual([
      'https://big.example/0',
      'https://big.example/1',
    ]);
    // With the small run's work all taken, the big run fills every free slot.
    const second = await store.claimItems('w', 5, 60_000);
    expect(second.map((i) => i.url)).toEqual([2, 3, 4, 5, 6].map((i) => `https://big.example/${i}`));
    const rest = await store.claimItems('w', 10, 60_000);
    expect(rest).toHaveLength(3);
    expect(await store.claimItems('w', 10, 60_000)).toEqual([]);
  });

  it('shares claims out between owners first: many runs of one key do not starve another key', async () => {
    store = await makeStore();
    // Before, slots went round the runs: the other key got 1 claim in 21, its page waiting behind 20.
    const many = [];
    for (let r = 0; r < 20; r += 1) {
      many.push(await crawlRun([`https://many.example/${r}/0`, `https://many.example/${r}/1`], 'own_many'));
    }
    const lone = await crawlRun(['https://lone.example/0', 'https://lone.example/1'], 'own_lone');
    const claims: ClaimedItem[] = [];
    for (let i = 0; i < 4; i += 1) claims.push(...(await store.claimItems('w', 1, 60_000)));
    expect(claims.filter((item) => item.runId === lone).length).toBeGreaterThanOrEqual(2);
    // Within the key with many runs, its runs still take turns.
    const two = await store.claimItems('w', 2, 60_000);
    expect(two.map((item) => item.owner).sort()).toEqual(['own_many', 'own_many']);
    const mine = new Set([...claims, ...two].filter((item) => item.owner === 'own_many').map((i) => i.runId));
    expect(mine.size).toBe([...claims, ...two].filter((item) => item.owner === 'own_many').length);
    expect(many).toHaveLength(20);
  });

  it('gives the items first to the owners holding the fewest: slots one key holds go to another as they free', async () => {
    store = await makeStore();
    await crawlRun(
      Array.from({ length: 12 }, (_, i) => `https://slow.example/${i}`),
      'own_slow',
    );
    // The slow key holds every slot (and a reserve).
    expect(await store.claimItems('w', 8, 60_000)).toHaveLength(8);
    const quick = await crawlRun(['https://quick.example/0', 'https://quick.example/1'], 'own_quick');
    // Two slots free, one at a time: both go to the key holding none, whatever the turn. Before, the
    // keys took turns claim by claim and the slow key got one of them.
    const freed = [...(await store.claimItems('w', 1, 60_000)), ...(await store.claimItems('w', 1, 60_000))];
    expect(freed.map((item) => item.runId)).toEqual([quick, quick]);
    // Work-conserving: with nothing of the other key queued, the slow key takes what is left.
    expect((await store.claimItems('w', 8, 60_000)).map((item) => item.owner)).toEqual(
      Array(4).fill('own_slow'),
    );
  });
});

describe.each(stores)('%s active runs per owner', (name, makeStore) => {
  if (name === 'PostgresStore' && !postgresForTests()) return;
  it('refuses a creation or retry past maxActiveRuns, also when creations arrive together', async () => {
    store = await makeStore();
    const create = (n: number, owner = OWNER) =>
      store.createRun({
        owner,
        type: 'crawl',
        urls: [`https://limit.example/${n}`],
        params: RUN_PARAMS.crawl.parse({}),
        items: [{ url: `https://limit.example/${n}`, key: `https://limit.example/${n}`, depth: 0 }],
        maxActiveRuns: 3,
      });
    // Ten at once (on PostgreSQL, on as many connections as the pool gives): three are made.
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, (_, n) => create(n)));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(3);
    for (const o of outcomes)
      if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(ActiveRunLimitError);
    const active = await store.listRuns({ owner: OWNER, limit: 50 });
    expect(active.data).toHaveLength(3);
    // Another owner has room of its own; an ended run makes room; a retry counts like a creation.
    await create(20, 'own_other');
    const ended = active.data[0]!.id;
    expect(await store.cancelRun(OWNER, ended)).not.toBeNull();
    await create(21);
    await expect(store.retryRun(OWNER, ended, 3)).rejects.toBeInstanceOf(ActiveRunLimitError);
    expect((await store.getRun(OWNER, ended))!.run.status).toBe('cancelled');
    expect((await store.retryRun(OWNER, ended, 4))!.run.status).toBe('queued');
  });
});

describe.each(stores)('%s run changes', (name, makeStore) => {
  if (name === 'PostgresStore' && !postgresForTests()) return;
  it('numbers every creation and version of any run, so changes since a position are one read', async () => {
    store = await makeStore();
    const before = await store.changeCursor();
    const a = await crawlRun(['https://s.example/a']);
    const b = await crawlRun(['https://s.example/b']);
    const other = (
      await store.createRun({
        owner: 'own_other',
        type: 'crawl',
        urls: [],
        params: RUN_PARAMS.crawl.parse({}),
        items: [],
      })
    ).run.run.id;
    expect(await store.changeCursor()).toBe(before + 3);
    const created = await store.listRunChanges({ owner: OWNER, since: before, limit: 10 });
    expect(created.runs.map((r) => r.id)).toEqual([a, b]);
    const afterCreation = created.cursor;
    // A claim bumps a's version (queued → running); b and the other owner's run stay put.
    const [item] = await store.claimItems('w1', 1, 60_000);
    expect(item?.runId).toBe(a);
    const claimed = await store.listRunChanges({ owner: OWNER, since: afterCreation, limit: 10 });
    expect(claimed.runs.map((r) => [r.id, r.status])).toEqual([[a, 'running']]);
    expect(claimed.cursor).toBeGreaterThan(afterCreation);
    // Nothing after the last position: the same position back, and ids filter and name the missing.
    const none = await store.listRunChanges({
      owner: OWNER,
      since: claimed.cursor,
      ids: [a, b, other, 'run_unknown'],
      limit: 10,
    });
    expect(none).toEqual({ runs: [], cursor: claimed.cursor, missing: [other, 'run_unknown'] });
    await store.cancelRun(OWNER, b);
    const limited = await store.listRunChanges({ owner: OWNER, since: afterCreation, ids: [b], limit: 1 });
    expect(limited.runs.map((r) => [r.id, r.status])).toEqual([[b, 'cancelled']]);
  });

  it('names runs deleted since a position in key-wide changes, in order with the runs that changed', async () => {
    store = await makeStore();
    const a = await crawlRun(['https://s.example/a']);
    const b = await crawlRun(['https://s.example/b']);
    const c = await crawlRun(['https://s.example/c']);
    const other = (
      await store.createRun({
        owner: 'own_other',
        type: 'crawl',
        urls: [],
        params: RUN_PARAMS.crawl.parse({}),
        items: [],
      })
    ).run.run.id;
    const since = await store.changeCursor();
    await store.cancelRun(OWNER, a);
    expect(await store.deleteRun(OWNER, b)).toBe(true);
    await store.cancelRun(OWNER, c);
    expect(await store.deleteRun('own_other', other)).toBe(true);
    const all = await store.listRunChanges({ owner: OWNER, since, limit: 10 });
    expect(all.runs.map((r) => [r.id, r.status])).toEqual([
      [a, 'cancelled'],
      [c, 'cancelled'],
    ]);
    // The other owner's deletion is not this owner's change.
    expect(all.missing).toEqual([b]);
    // A page stops at the limit in the order things happened, and goes on from its position.
    const first = await store.listRunChanges({ owner: OWNER, since, limit: 2 });
    expect([first.runs.map((r) => r.id), first.missing]).toEqual([[a], [b]]);
    const rest = await store.listRunChanges({ owner: OWNER, since: first.cursor, limit: 2 });
    expect([rest.runs.map((r) => r.id), rest.missing]).toEqual([[c], []]);
    expect(rest.cursor).toBe(all.cursor);
    const after = await store.listRunChanges({ owner: OWNER, since: all.cursor, limit: 10 });
    expect(after).toEqual({ runs: [], missing: [], cursor: all.cursor });
  });
});
