import {
  type ContentFormat,
  type ContentValue,
  endpointOf,
  LIMITS,
  type Result,
  type ResultContentFormat,
  type Run,
} from '@webdata/contract';
import type { FastifyInstance } from 'fastify';
import { readRunParams } from '../../engine/run-params.js';
import { notFound, ServiceError } from '../../errors.js';
import type { Page } from '../../store/store.js';
import type { ApiContext } from '../context.js';
import { declareRoute, routeOf } from '../contract-route.js';
import { acceptedAnswers, JSON_ANSWER, preferredRawType } from '../raw-content.js';
import { parseRequest } from '../validate.js';

/** Media types a client may ask for to get a result's content raw instead of as JSON. */
const RAW_TYPES: Record<string, ResultContentFormat> = {
  'text/markdown': 'markdown',
  'text/html': 'html',
  'text/plain': 'text',
};

/** The formats a crawl asked for; null for an extraction, which keeps its pages in every format. */
function formatsOf(run: Run): ContentFormat[] | null {
  const typed = readRunParams(run.type, run.params);
  return typed.type === 'extract' ? null : typed.params.formats;
}

/** The format served when the client names none: what the run was asked for first. */
function defaultFormat(result: Result, run: Run): ResultContentFormat {
  if (result.data !== null) return 'json';
  return formatsOf(run)?.[0] ?? 'markdown';
}

/** The formats a run stores, as a reader would list them. */
function requestedFormats(run: Run): string {
  return (formatsOf(run) ?? ['markdown', 'html', 'text', 'links', 'json']).join(', ');
}

/** Content as stored (JSON text for `json` and `links`) as it goes on the wire. */
function parseStoredContent(format: ResultContentFormat, body: string): ContentValue {
  return format === 'json' || format === 'links' ? (JSON.parse(body) as ContentValue) : body;
}

/** Result routes: list, content (JSON or raw), screenshot access, and the signed screenshot URL itself. */
export function registerResultRoutes(app: FastifyInstance, context: ApiContext): void {
  declareRoute(app, context, 'listResults', async ({ path: { runId }, query: listQuery, request, send }) => {
    const { include, format, ...query } = listQuery;
    // Alone, `format` was ignored: the answer came without content, as if the format had none.
    if (format !== undefined && include !== 'content') {
      const message = 'format picks the format of included content: send include=content with it';
      throw new ServiceError('invalid_request', `invalid query: query.format: ${message}`, {
        details: [{ path: ['format'], code: 'format_without_include', message }],
      });
    }
    const page = await context.store.listResults(request.owner, runId, query);
    if (!page) throw notFound('run');
    if (include !== 'content') return send(page);
    const stored = await context.store.getRun(request.owner, runId);
    if (!stored) throw notFound('run');
    // A crawl's pages can hold megabytes each: 200 of them in one answer held the event loop for 9 s
    // and took 1.7 GB. The page ends at the content budget, and the cursor goes on from there.
    let chars = 0;
    let kept = 0;
    for (const result of page.data) {
      const chosen = format ?? defaultFormat(result, stored.run);
      const body = await context.store.getContent(result.id, chosen);
      if (kept > 0 && chars + (body?.length ?? 0) > LIMITS.maxIncludedContentChars) break;
      chars += body?.length ?? 0;
      result.content = body === null ? null : parseStoredContent(chosen, body);
      kept += 1;
    }
    if (kept === page.data.length) return send(page);
    // The store's cursor after the last result kept: the same list, `kept` long.
    const cut = await context.store.listResults(request.owner, runId, { ...query, limit: kept });
    const shorter: Page<Result> = { data: page.data.slice(0, kept), next_cursor: cut?.next_cursor ?? null };
    return send(shorter);
  });

  declareRoute(app, context, 'getResultContent', async (call) => {
    const { runId, resultId } = call.path;
    const { query, request, reply } = call;
    // The answer depends on Accept (raw or JSON, and which format): a cache must key on it.
    reply.header('vary', 'Accept');
    const stored = await context.store.getRun(request.owner, runId);
    const result = stored && (await context.store.getResult(request.owner, runId, resultId));
    if (!stored || !result) throw notFound('result');
    // With ?format the format is fixed and Accept picks raw or JSON; without, the first answer Accept
    // prefers that this result holds (its raw types name formats; JSON is the run's own format).
    const choices: { raw: string | null; format: ResultContentFormat }[] = query.format
      ? [{ raw: preferredRawType(request.headers.accept, Object.keys(RAW_TYPES)), format: query.format }]
      : acceptedAnswers(request.headers.accept, Object.keys(RAW_TYPES)).map((answer) =>
          answer === JSON_ANSWER
            ? { raw: null, format: defaultFormat(result, stored.run) }
            : { raw: answer, format: RAW_TYPES[answer]! },
        );
    let chosen: { raw: string | null; format: ResultContentFormat; body: string } | null = null;
    for (const choice of choices) {
      const held = await context.store.getContent(resultId, choice.format);
      if (held !== null) {
        chosen = { ...choice, body: held };
        break;
      }
    }
    if (!chosen) {
      const format = choices[0]!.format;
      throw new ServiceError(
        'not_found',
        result.status === 'failed'
          ? `this result failed (${result.error?.code}); it has no ${format} content`
          : `this result has no ${format} content; the run asked for ${requestedFormats(stored.run)}`,
      );
    }
    const { raw, format, body } = chosen;
    const content = parseStoredContent(format, body);
    if (raw) {
      const text = Array.isArray(content)
        ? content.join('\n')
        : typeof content === 'string'
          ? content
          : JSON.stringify(content, null, 2);
      const type =
        format === 'json'
          ? 'application/json'
          : format === 'html'
            ? 'text/html'
            : format === 'markdown'
              ? 'text/markdown'
              : 'text/plain';
      return reply.type(`${type}; charset=utf-8`).send(text);
    }
    return call.send({ id: result.id, url: result.url, format, content });
  });

  declareRoute(app, context, 'getResultScreenshot', async (call) => {
    const { runId, resultId } = call.path;
    const result = await context.store.getResult(call.request.owner, runId, resultId);
    if (!result) throw notFound('result');
    if (!result.has_screenshot) {
      throw new ServiceError(
        'not_found',
        result.screenshot_error
          ? `this result has no screenshot: ${result.screenshot_error.message}`
          : result.status === 'failed'
            ? `this result failed (${result.error?.code}): ${result.error?.message}; a failed page has no screenshot`
            : 'this result has no screenshot; create the run with "screenshot": true',
      );
    }
    const access = context.signer.signedScreenshotUrl(
      context.baseUrl(),
      runId,
      resultId,
      context.config.signedUrlTtlSeconds,
    );
    call.reply.header('cache-control', 'no-store');
    return call.send(access);
  });

  // A bad signature query is a 403 (the URL was altered), not a 400: this route parses its query itself.
  const signed = endpointOf('getSignedScreenshot');
  app.route({
    ...routeOf(signed),
    handler: async (request, reply) => {
      const { runId, resultId } = parseRequest(signed.pathParams, request.params, 'path');
      const query = signed.query.safeParse(request.query);
      const check = query.success
        ? context.signer.verifySignedScreenshot(runId, resultId, query.data)
        : 'invalid';
      if (check !== 'ok') {
        throw new ServiceError(
          'forbidden',
          check === 'expired' ? 'this signed URL has expired' : 'this signed URL is not valid',
        );
      }
      const png = await context.store.getScreenshot(runId, resultId);
      if (!png) throw notFound('screenshot');
      const remaining = Math.max(0, Number(query.data!.expires) - Math.floor(Date.now() / 1000));
      return reply
        .type('image/png')
        .header('cache-control', `private, max-age=${remaining}, immutable`)
        .header('x-content-type-options', 'nosniff')
        .send(png);
    },
  });
}
