import {
  CrawlRequest,
  type CreateRunParams,
  CreateRunRequest,
  DeepCrawlRequest,
  ExtractRequest,
  GetRunQuery,
  isTerminalStatus,
  LIMITS,
  ListRunsQuery,
  Run,
  RunPage,
  RunPathParams,
} from '@webdata/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { notFound, ServiceError } from '../../errors.js';
import type { ApiContext } from '../context.js';
import { RunSnapshots } from '../run-snapshots.js';
import { sendValid } from '../send.js';
import { parseRequest } from '../validate.js';

const etagOf = (version: number) => `"v${version}"`;

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

/** Run routes: the three creating endpoints, `POST /runs`, list, inspect (ETag, long poll), cancel, retry, delete. */
export function registerRunRoutes(app: FastifyInstance, context: ApiContext): void {
  const create = async (request: FastifyRequest, reply: FastifyReply, params: CreateRunParams) => {
    const { run, created } = await context.runs.create(request.owner, params, idempotencyKey(request));
    context.events.notify(run.run.id);
    // The ETag lets a client long-poll for the very next change (`If-None-Match` + `?wait=`).
    reply.header('location', `/api/v1/runs/${run.run.id}`).header('etag', etagOf(run.version));
    if (!created) reply.header('idempotent-replayed', 'true');
    return sendValid(context, reply, Run, run.run, 202);
  };
  const typed =
    <T extends z.ZodType>(schema: T, type: CreateRunParams['type']) =>
    (request: FastifyRequest, reply: FastifyReply) =>
      create(request, reply, {
        type,
        ...(parseRequest(schema, request.body, 'body') as object),
      } as CreateRunParams);

  app.post('/api/v1/extract', typed(ExtractRequest, 'extract'));
  app.post('/api/v1/crawl', typed(CrawlRequest, 'crawl'));
  app.post('/api/v1/deep-crawl', typed(DeepCrawlRequest, 'deep-crawl'));
  app.post('/api/v1/runs', (request, reply) =>
    create(request, reply, parseRequest(CreateRunRequest, request.body, 'body')),
  );

  app.get('/api/v1/runs', async (request, reply) => {
    const query = parseRequest(ListRunsQuery, request.query, 'query');
    const page = await context.store.listRuns({ owner: request.owner, ...query });
    return sendValid(context, reply, RunPage, page);
  });

  const snapshots = new RunSnapshots();
  context.events.onAnyChange((runId) => snapshots.invalidate(runId));
  app.get('/api/v1/runs/:runId', async (request, reply) => {
    const { runId } = parseRequest(RunPathParams, request.params, 'path');
    const { wait } = parseRequest(GetRunQuery, request.query, 'query');
    const ifNoneMatch = request.headers['if-none-match'];
    let snapshot = wait ? null : snapshots.fresh(runId);
    if (!snapshot) {
      let head = await context.store.getRunHead(runId);
      if (!head || head.owner !== request.owner) throw notFound('run');
      if (wait !== undefined && wait > 0) {
        reply.header('x-webdata-wait', String(wait));
        head = await waitForChange(context, request, runId, head.version, ifNoneMatch, wait);
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
    if (ifNoneMatch === etag) return reply.code(304).send();
    return reply.type('application/json; charset=utf-8').send(snapshot.json);
  });

  app.delete('/api/v1/runs/:runId', async (request, reply) => {
    const { runId } = parseRequest(RunPathParams, request.params, 'path');
    await context.runs.delete(request.owner, runId);
    return reply.code(204).send();
  });

  app.post('/api/v1/runs/:runId/cancel', async (request, reply) => {
    const { runId } = parseRequest(RunPathParams, request.params, 'path');
    return sendValid(context, reply, Run, await context.runs.cancel(request.owner, runId));
  });

  app.post('/api/v1/runs/:runId/retry', async (request, reply) => {
    const { runId } = parseRequest(RunPathParams, request.params, 'path');
    return sendValid(context, reply, Run, await context.runs.retry(request.owner, runId), 202);
  });
}

/**
 * Holds a long poll until the run moves past the version the client has (its
 * If-None-Match, else the current one), `wait` seconds pass, the client goes
 * away or the server shuts down. Terminal runs answer at once.
 */
async function waitForChange(
  context: ApiContext,
  request: FastifyRequest,
  runId: string,
  version: number,
  ifNoneMatch: string | undefined,
  wait: number,
): Promise<{ owner: string; version: number }> {
  const stored = await context.store.getRun(request.owner, runId);
  if (!stored || isTerminalStatus(stored.run.status)) return { owner: request.owner, version };
  const seen = ifNoneMatch === undefined || ifNoneMatch === etagOf(version) ? version : -1;
  const abort = new AbortController();
  const onClose = () => abort.abort();
  request.raw.once('close', onClose);
  context.closing.addEventListener('abort', onClose, { once: true });
  try {
    await context.events.waitForChange(
      runId,
      seen,
      async () => (await context.store.getRunHead(runId))?.version ?? null,
      {
        timeoutMs: wait * 1000,
        signal: abort.signal,
      },
    );
  } finally {
    request.raw.off('close', onClose);
    context.closing.removeEventListener('abort', onClose);
  }
  const head = await context.store.getRunHead(runId);
  if (!head || head.owner !== request.owner) throw notFound('run');
  return head;
}
