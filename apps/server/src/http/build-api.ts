import type { Socket } from 'node:net';
import { buildOpenApiDocument, type ErrorBody } from '@webdata/contract';
import Fastify, { type FastifyInstance } from 'fastify';
import { ServiceError } from '../errors.js';
import { requestIds } from '../ids.js';
import { API_REFERENCE_PATH, registerApiReferencePage } from './api-reference-page.js';
import { registerAuth } from './auth.js';
import type { ApiContext } from './context.js';
import { registerErrorHandling, sendError } from './error-handler.js';
import { LARGE_BODY_BYTES, parseJsonBody } from './json-body.js';
import { clientErrorHandler, HTTP_LIMITS, refuseSocket } from './raw-errors.js';
import { registerDocumentRoutes } from './routes/documents.js';
import { registerResultRoutes } from './routes/results.js';
import { registerRunRoutes } from './routes/runs.js';
import { registerSearchRoutes } from './routes/search.js';

const OPENAPI_PATH = '/api/v1/openapi.json';
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;
/** Longest path segment the router takes (ids are far shorter; the contract checks them). */
const MAX_PARAM_LENGTH = 2048;

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** A JSON body's text; bytes that are not UTF-8 are refused (400), never replaced silently. */
function decodeUtf8(body: Buffer): string {
  try {
    return UTF8.decode(body);
  } catch {
    throw new ServiceError('invalid_request', 'request body is not valid UTF-8');
  }
}

/** Logged URLs lose their signed-URL signatures; nothing else secret is ever in a URL. */
function redactUrl(url: string): string {
  return url.replace(/([?&]signature=)[^&]*/gi, '$1[redacted]');
}

/**
 * The Fastify application of the v1 API. Logs are Fastify's own (pino) with
 * request serializers that show method, URL (signatures redacted) and key id
 * but never a header value, so an API key cannot end up in a log.
 */
export function buildApi(context: ApiContext): FastifyInstance {
  const nextRequestId = requestIds();
  const app = Fastify({
    logger: {
      level: context.config.logLevel,
      serializers: {
        req: (request) => ({ method: request.method, url: redactUrl(request.url), id: request.id }),
      },
    },
    bodyLimit: context.config.maxBodyBytes,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && CLIENT_REQUEST_ID.test(given) ? given : nextRequestId();
    },
    // Long polls hold requests for up to 30 s; shutdown releases them itself.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    // Ids are validated by the contract (and too long ones refused there), not cut off by the router.
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Errors the router raises before any route runs (a malformed %-escape) get the one error body too.
    frameworkErrors: (error, request, reply) => {
      // The router's message for an over-long segment echoes the whole path (kilobytes of it).
      const message =
        error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? `a path segment is longer than ${MAX_PARAM_LENGTH.toLocaleString('en-US')} characters: ids are much shorter, so the URL is not one this API made`
          : `malformed request: ${error.message}`;
      sendError(reply, request, new ServiceError('invalid_request', message));
    },
    // A slow or stalled request is cut off (408) rather than held forever; the answer may take longer (long polls).
    requestTimeout: context.config.requestTimeoutMs,
    http: {
      headersTimeout: Math.min(context.config.headersTimeoutMs, context.config.requestTimeoutMs),
      connectionsCheckingInterval: HTTP_LIMITS.timeoutCheckMs,
      maxHeaderSize: HTTP_LIMITS.maxHeaderBytes,
      // Node answers a missing Host with an empty 400 of its own; the hook below answers it in our shape.
      requireHostHeader: false,
    },
    // What Node's HTTP parser refuses is answered with the one error body too.
    clientErrorHandler: clientErrorHandler(nextRequestId),
  });
  app.server.maxConnections = HTTP_LIMITS.maxConnections;
  // New connections are accepted one per loop iteration: work waiting for a turn lets a backlog of them in first.
  context.turns.giveWayTo(app.server);
  // Without a listener Node drops a CONNECT (or an Upgrade) unanswered; neither is served here.
  app.server.on('connect', (_request, socket) =>
    refuseSocket(socket as Socket, 'CONNECT is not served here', nextRequestId()),
  );
  // Node answers an `Expect` other than 100-continue with an empty 417 of its own.
  app.server.on('checkExpectation', (_request, response) => {
    const requestId = nextRequestId();
    const body: ErrorBody = {
      error: {
        code: 'invalid_request',
        message: 'the only Expect this server meets is 100-continue',
        request_id: requestId,
      },
    };
    response.writeHead(417, {
      'content-type': 'application/json; charset=utf-8',
      'x-request-id': requestId,
      connection: 'close',
    });
    response.end(JSON.stringify(body));
  });
  app.addHook('onRequest', async (request, reply) => {
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      return sendError(reply, request, new ServiceError('invalid_request', 'the Host header is required'));
    }
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser<Buffer>('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    const parse = () => {
      try {
        // Validation follows synchronously from done(): the body's whole cost falls within this call.
        done(null, parseJsonBody(decodeUtf8(body)));
      } catch (error) {
        done(error as Error, undefined);
      }
    };
    if (body.length < LARGE_BODY_BYTES) parse();
    else void context.turns.take().then(parse);
  });
  registerErrorHandling(app, { maxBodyBytes: context.config.maxBodyBytes });
  // A compressed body is refused with a word on what to do (it read as "not valid UTF-8"); after
  // authentication, where the media type is checked too. RFC 9110: 415, with Accept-Encoding.
  app.addHook('preParsing', async (request, reply) => {
    const encoding = request.headers['content-encoding']?.trim();
    if (encoding === undefined || encoding === '' || encoding.toLowerCase() === 'identity') return;
    const { 'content-length': length, 'transfer-encoding': chunked } = request.headers;
    if (chunked === undefined && (length === undefined || length === '0')) return; // no body to read
    reply.header('accept-encoding', 'identity');
    throw new ServiceError(
      'unsupported_media_type',
      `Content-Encoding ${encoding} is not read here: send the JSON body uncompressed (no Content-Encoding, or identity)`,
    );
  });
  registerAuth(app, context);
  registerRunRoutes(app, context);
  registerResultRoutes(app, context);
  registerSearchRoutes(app, context);
  registerDocumentRoutes(app, context);
  app.get('/healthz', { config: { public: true } }, async () => ({ ok: true }));
  app.get(OPENAPI_PATH, { config: { public: true } }, async () =>
    buildOpenApiDocument({ serverUrl: context.baseUrl() }),
  );
  registerApiReferencePage(app, OPENAPI_PATH);
  // The start banner prints the server's address, which people open in a browser: without this it
  // answered 401 'the x-api-key header is required'. The API reference says what to send.
  app.get('/', { config: { public: true } }, async (_request, reply) =>
    reply.redirect(`${API_REFERENCE_PATH}/`, 302),
  );
  return app;
}
