import type { FastifyInstance } from 'fastify';
import { ServiceError } from '../errors.js';
import { ApiKeyCache } from '../keys.js';
import type { ApiContext } from './context.js';
import { sendError } from './error-handler.js';
import { RateLimiter } from './rate-limiter.js';

/**
 * Every request but the public ones (signed URLs) must carry a valid
 * `x-api-key` (the request id header is set first, so even a refusal carries it); the key's owner is attached to the request and its rate is
 * limited. While the server shuts down, new requests get 503.
 */
export function registerAuth(app: FastifyInstance, context: ApiContext): void {
  const keys = new ApiKeyCache(context.store);
  const limiter = new RateLimiter(context.config.rateLimitPerSecond, context.config.rateLimitBurst);
  // Refusals per client address: key guessing and 401 floods (each one logged) are slowed down.
  const refusals = new RateLimiter(context.config.authFailureRatePerSecond, context.config.authFailureBurst);
  app.decorateRequest('owner', '');
  app.decorateRequest('keyId', '');
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (context.closing.aborted) {
      return sendError(
        reply,
        request,
        new ServiceError('unavailable', 'the server is shutting down', { retryAfterSeconds: 5 }),
      );
    }
    if (request.routeOptions.config?.public) return;
    const presented = request.headers['x-api-key'];
    const key = typeof presented === 'string' ? await keys.verify(presented) : null;
    if (!key) {
      const wait = refusals.take(request.ip);
      if (wait > 0) {
        return sendError(
          reply,
          request,
          new ServiceError(
            'rate_limited',
            `too many requests without a valid API key from this address; retry in ${wait} s`,
            { retryAfterSeconds: wait },
          ),
        );
      }
      const message = refusalMessage(presented, request.headers.authorization !== undefined);
      return sendError(reply, request, new ServiceError('unauthorized', message));
    }
    request.owner = key.owner;
    request.keyId = key.id;
    const wait = limiter.take(key.id);
    if (wait > 0) {
      return sendError(
        reply,
        request,
        new ServiceError('rate_limited', `too many requests for this key; retry in ${wait} s`, {
          retryAfterSeconds: wait,
        }),
      );
    }
  });
}

/**
 * Why a request's key was refused, saying what to change where that can be
 * seen: clients of other services send `Authorization: Bearer …`, which is not
 * read here, and Node joins a header sent twice into one value with ", ".
 */
function refusalMessage(presented: string | string[] | undefined, hasAuthorization: boolean): string {
  if (presented === undefined) {
    return hasAuthorization
      ? 'the x-api-key header is required (the Authorization header is not read: send the key as x-api-key: <key>)'
      : 'the x-api-key header is required';
  }
  if (typeof presented !== 'string' || presented.includes(',')) {
    return 'the x-api-key header is given more than once: send it once';
  }
  if (presented.trim() === '') return 'the x-api-key header is empty: send the API key in it';
  return 'the API key is not valid or was revoked';
}
