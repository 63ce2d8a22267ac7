import { buildOpenApiDocument } from '@webdata/contract';
import Fastify, { type FastifyInstance } from 'fastify';
import { ServiceError } from '../errors.js';
import { requestIds } from '../ids.js';
import { registerApiReferencePage } from './api-reference-page.js';
import { registerAuth } from './auth.js';
import type { ApiContext } from './context.js';
import { registerErrorHandling, sendError } from './error-handler.js';
import { parseJsonBody } from './json-body.js';
import { registerResultRoutes } from './routes/results.js';
import { registerRunRoutes } from './routes/runs.js';
import { registerSearchRoutes } from './routes/search.js';

const OPENAPI_PATH = '/api/v1/openapi.json';
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

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
    routerOptions: { maxParamLength: 2048 },
    // Errors the router raises before any route runs (a malformed %-escape) get the one error body too.
    frameworkErrors: (error, request, reply) => {
      sendError(reply, request, new ServiceError('invalid_request', `malformed request: ${error.message}`));
    },
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  registerErrorHandling(app);
  registerAuth(app, context);
  registerRunRoutes(app, context);
  registerResultRoutes(app, context);
  registerSearchRoutes(app, context);
  app.get('/healthz', { config: { public: true } }, async () => ({ ok: true }));
  app.get(OPENAPI_PATH, { config: { public: true } }, async () =>
    buildOpenApiDocument({ serverUrl: context.baseUrl() }),
  );
  registerApiReferencePage(app, OPENAPI_PATH);
  return app;
}
