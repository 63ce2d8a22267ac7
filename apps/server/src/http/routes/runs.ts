import { type CreateRunParams, type EndpointOf, isTerminalStatus, LIMITS, Run } from '@webdata/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { notFound, ServiceError } from '../../errors.js';
import type { Page, RunListQuery } from '../../store/store.js';
import type { ApiContext } from '../context.js';
import { declareRoute, type EndpointCall } from '../contract-route.js';
import { LongPollSlots } from '../long-poll-slots.js';
import { RunSnapshots } from '../run-snapshots.js';

const etagOf = (version: number) => `"v${version}"`;

/**
 * `If-None-Match` against a run's ETag as RFC 9110 (13.1.2) reads it: weak
 * comparison (a proxy that compresses the answer, nginx's gzip for one, hands
 * the ETag on as `W/"v7"`), a list of ETags, or `*`. Compared as a string,
 * such a client never got a 304, and its long poll answered at once, each time.
 */
function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  if (ifNoneMatch.trim() === '*') return true;
  for (const [, opaque] of ifNoneMatch.matchAll(/(?:W\/)?("[^"]*")/g)) if (opaque === etag) return true;
  return false;
}

/** The `Idempotency-Key` header, checked. */
function idempotencyKey(request: FastifyRequest): string | undefined {
  const value = request.headers['idempotency-key'];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length === 0 || value.length > LIMITS.maxIdempotencyKeyLength) {
    throw new ServiceError(
      'invalid_request',
      `Idempotency-Key must be 1–${LIMITS.maxIdempotencyKeyLength} characters`,
      {
        details: [
          { path: ['Idempotency-Key'], code: 'invalid_header', message: 'one value of 1–255 characters' },
        ],
      },
    );
  }
  return value;
}

/** What creating a run needs of a call to one of the creating endpoints (they all answer a run). */
type CreatingCall = Pick<EndpointCall<EndpointOf<'createRun'>>, 'request' | 'reply' | 'send'>;

/** Run routes: the three creating endpoints, `POST /runs`, list, inspect (ETag, long poll), cancel, retry, delete. */
export function registerRunRoutes(app: FastifyInstance, context: ApiContext): void {
  const create = async (call: CreatingCall, params: CreateRunParams) => {
    const { request, reply } = call;
    const { run, created } = await context.runs.create(request.owner, params, idempotencyKey(request));
    context.events.notify(run.run.id);
    // The ETag lets a client long-poll for the very next change (`If-None-Match` + `?wait=`).
    reply.header('location', `/api/v1/runs/${run.run.id}`).header('etag', etagOf(run.version));
    if (!created) reply.header('idempotent-replayed', 'true');
    return call.send(run.run);
  };
  // The three typed endpoints are `POST /runs` with the type implied by the path.
  declareRoute(app, context, 'createExtraction', (call) => create(call, { type: 'extract', ...call.body }));
  declareRoute(app, context, 'createCrawl', (call) => create(call, { type: 'crawl', ...call.body }));
  declareRoute(app, context, 'createDeepCrawl', (call) => create(call, { type: 'deep-crawl', ...call.body }));
  declareRoute(app, context, 'createRun', (call) => create(call, call.body));

  declareRoute(app, context, 'listRuns', async (call) => {
    const { query, request, reply, send } = call;
    const since = changeCursorOf(request.headers['if-none-match']);
    if (query.wait === undefined && since === undefined) {
      // Read first: a change after this position shows in a later change feed, even one made during the list.
      const cursor = await context.store.changeCursor();
      const page = await pageWithinBudget(context, { owner: request.owner, ...query });
      // no-store: the ETag is a change position, not a validator of this list, so an HTTP cache
      // must never revalidate the list with it (it would get the changes, or a 400 for a filtered list).
      reply.header('etag', changeEtagOf(cursor)).header('cache-control', 'no-store');
      return send(page);
    }
    return sendRunChanges(context, polls, call, since);
  });

  const polls = new LongPollSlots();
  const snapshots = new RunSnapshots();
  context.events.onAnyChange((runId) => snapshots.invalidate(runId));
  declareRoute(app, context, 'getRun', async ({ path: { runId }, query: { wait }, request, reply }) => {
    const ifNoneMatch = request.headers['if-none-match'];
    let snapshot = wait ? null : snapshots.fresh(runId);
    if (!snapshot) {
      let head = await context.store.getRunHead(runId);
      if (!head || head.owner !== request.owner) throw notFound('run');
      if (wait !== undefined && wait > 0) {
        reply.header('x-webdata-wait', String(wait));
        head = await waitForChange(context, polls, request, runId, head.version, ifNoneMatch, wait);
      }
      snapshot = snapshots.at(runId, head.version);
      if (!snapshot) {
        const stored = await context.store.getRun(request.owner, runId);
        if (!stored) throw notFound('run');
        if (context.config.validateResponses) Run.parse(stored.run);
        snapshot = snapshots.set(stored.run, stored.owner, stored.version);
      }
    }
    if (snapshot.owner !== request.owner) throw notFound('run');
    const etag = etagOf(snapshot.version);
    reply.header('etag', etag).header('cache-control', 'no-cache');
    if (!snapshot.terminal) reply.header('x-poll-after-ms', '1000');
    if (etagMatches(ifNoneMatch, etag)) return reply.code(304).send();
    return reply.type('application/json; charset=utf-8').send(snapshot.json);
  });

  declareRoute(app, context, 'deleteRun', async ({ path: { runId }, request, reply }) => {
    await context.runs.delete(request.owner, runId);
    return reply.code(204).send();
  });

  declareRoute(app, context, 'cancelRun', async ({ path: { runId }, request, send }) =>
    send(await context.runs.cancel(request.owner, runId)),
  );

  declareRoute(app, context, 'retryRun', async ({ path: { runId }, request, send }) =>
    send(await context.runs.retry(request.owner, runId)),
  );
}

const changeEtagOf = (cursor: number) => `"c${cursor}"`;

/** The change position in an `If-None-Match` that holds a run list's ETag, if it does. */
function changeCursorOf(ifNoneMatch: string | undefined): number | undefined {
  const match = /^(?:W\/)?"c(\d{1,15})"$/.exec(ifNoneMatch?.trim() ?? '');
  return match ? Number(match[1]) : undefined;
}

/**
 * The change feed of `GET /runs` (the batched long poll): the runs among
 * `ids` (else every run of the key) that changed since the ETag in
 * `If-None-Match` (else since the request arrived), oldest change first,
 * held up to `wait` seconds until there is one. Nothing changed: 304 to a
 * client that sent an ETag, an empty list to one that did not.
 */
async function sendRunChanges(
  context: ApiContext,
  polls: LongPollSlots,
  { request, reply, query, send }: EndpointCall<EndpointOf<'listRuns'>>,
  since: number | undefined,
): Promise<FastifyReply> {
  if (query.status !== undefined || query.type !== undefined || query.cursor !== undefined) {
    throw new ServiceError(
      'invalid_request',
      'with wait or a list ETag in If-None-Match, GET /runs answers the runs that changed: filter them with ids only (no status, type or cursor)',
    );
  }
  const current = await context.store.changeCursor();
  const changesQuery = {
    owner: request.owner,
    // An ETag past the store's last change was handed out by another database (the data directory
    // reset, another server): nothing would ever follow it, and the client would get 304 for good.
    // It reads every run from the start instead, as a client that has seen none, and takes the new ETag.
    since: since === undefined ? current : since > current ? 0 : since,
    ids: query.ids,
    limit: query.limit,
  };
  let changes = await context.store.listRunChanges(changesQuery);
  if (query.wait !== undefined && query.wait > 0) {
    reply.header('x-webdata-wait', String(query.wait));
    if (changes.runs.length === 0 && changes.missing.length === 0) {
      // Each notice asks for one change at most (it may come many times a second); the answer reads them all.
      await holdUntil(context, polls, request, query.wait, query.ids ?? 'any', async () => {
        const first = await context.store.listRunChanges({ ...changesQuery, limit: 1 });
        return first.runs.length > 0 || first.missing.length > 0;
      });
      changes = await context.store.listRunChanges(changesQuery);
    }
  }
  reply.header('etag', changeEtagOf(changes.cursor)).header('cache-control', 'no-store');
  if (changes.missing.length > 0) reply.header('x-webdata-missing', changes.missing.join(','));
  if (changes.runs.length === 0 && changes.missing.length === 0 && since !== undefined) {
    return reply.code(304).send();
  }
  return send({ data: changes.runs, next_cursor: null });
}

/** Holds a request until `ready`, `wait` seconds, the client leaving or the server shutting down. */
async function holdUntil(
  context: ApiContext,
  polls: LongPollSlots,
  request: FastifyRequest,
  wait: number,
  runIds: readonly string[] | 'any',
  ready: () => Promise<boolean>,
): Promise<void> {
  const abort = new AbortController();
  const onClose = () => abort.abort();
  request.raw.once('close', onClose);
  context.closing.addEventListener('abort', onClose, { once: true });
  try {
    await polls.during(request.owner, () =>
      context.events.waitUntil(runIds, ready, { timeoutMs: wait * 1000, signal: abort.signal }),
    );
  } finally {
    request.raw.off('close', onClose);
    context.closing.removeEventListener('abort', onClose);
  }
}

/**
 * Holds a long poll until the run moves past the version the client has (its
 * If-None-Match, else the current one), `wait` seconds pass, the client goes
 * away or the server shuts down. Terminal runs answer at once.
 */
async function waitForChange(
  context: ApiContext,
  polls: LongPollSlots,
  request: FastifyRequest,
  runId: string,
  version: number,
  ifNoneMatch: string | undefined,
  wait: number,
): Promise<{ owner: string; version: number }> {
  const stored = await context.store.getRun(request.owner, runId);
  if (!stored || isTerminalStatus(stored.run.status)) return { owner: request.owner, version };
  const seen = ifNoneMatch === undefined || etagMatches(ifNoneMatch, etagOf(version)) ? version : -1;
  await holdUntil(context, polls, request, wait, [runId], async () => {
    const now = (await context.store.getRunHead(runId))?.version ?? null;
    return now === null || now !== seen;
  });
  const head = await context.store.getRunHead(runId);
  if (!head || head.owner !== request.owner) throw notFound('run');
  return head;
}

/** Characters a run brings to a list: its URLs and params (up to 100 URLs of 2,048 characters, a 64 KiB schema). */
function runChars(run: Run): number {
  let chars = JSON.stringify(run.params).length;
  for (const url of run.urls) chars += url.length;
  return chars;
}

/** Runs read from the store at a time while a list page fills: a long page stops reading at its budget. */
const RUN_LIST_CHUNK = 25;

/**
 * A page of `GET /runs` that ends at {@link LIMITS.maxRunListChars}: 200 runs of 100 long URLs
 * each made a 40 MB answer, and three such requests held every other one for 1.8 s. The store is
 * read {@link RUN_LIST_CHUNK} runs at a time, so a page cut short did not read (and parse) the rest.
 */
async function pageWithinBudget(context: ApiContext, query: RunListQuery): Promise<Page<Run>> {
  const data: Run[] = [];
  let chars = 0;
  let cursor = query.cursor;
  for (;;) {
    const chunk = { ...query, cursor, limit: Math.min(RUN_LIST_CHUNK, query.limit - data.length) };
    const page = await context.store.listRuns(chunk);
    let kept = 0;
    for (const run of page.data) {
      chars += runChars(run);
      if (data.length > 0 && chars > LIMITS.maxRunListChars) break;
      data.push(run);
      kept += 1;
    }
    if (kept < page.data.length) {
      // Over the budget. Nothing of this chunk kept: its cursor is the one after the last run kept;
      // otherwise the store's cursor after it (the same chunk, `kept` long).
      if (kept === 0) return { data, next_cursor: cursor ?? null };
      const cut = await context.store.listRuns({ ...chunk, limit: kept });
      return { data, next_cursor: cut.next_cursor };
    }
    if (page.next_cursor === null || data.length >= query.limit)
      return { data, next_cursor: page.next_cursor };
    cursor = page.next_cursor;
  }
}
