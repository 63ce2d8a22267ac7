import type { ErrorBody } from '@webdata/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../errors.js';

/** The 413 of a body over `maxBodyBytes`, saying the limit: a client then knows how far to cut its request. */
export function bodyTooLarge(maxBodyBytes: number): ServiceError {
  const mebibytes = maxBodyBytes / 1_048_576;
  const inMiB = Number.isInteger(mebibytes) ? ` (${mebibytes} MiB)` : '';
  return new ServiceError(
    'payload_too_large',
    `request body is larger than the limit of ${maxBodyBytes.toLocaleString('en-US')} bytes${inMiB}`,
  );
}

/** Fastify's own errors that are the client's fault, as contract errors. */
function fromFastify(error: FastifyError, maxBodyBytes: number): ServiceError | null {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return bodyTooLarge(maxBodyBytes);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ServiceError('unsupported_media_type', 'send the request body as application/json');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ServiceError('invalid_request', 'request body is empty; send a JSON object');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ServiceError('invalid_request', 'Content-Length does not match the body');
    default:
      break;
  }
  if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return new ServiceError('invalid_request', `request body is not valid JSON: ${error.message}`);
  }
  if (error.statusCode === 413) return bodyTooLarge(maxBodyBytes);
  if (error.statusCode === 415) return new ServiceError('unsupported_media_type', error.message);
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return new ServiceError('invalid_request', error.message);
  }
  return null;
}

/** Sends the one error body for `error`, with `Retry-After` when it has one. */
export function sendError(reply: FastifyReply, request: FastifyRequest, error: ServiceError): FastifyReply {
  const body: ErrorBody = {
    error: {
      code: error.code,
      message: error.message,
      ...(error.details ? { details: error.details } : {}),
      request_id: request.id,
    },
  };
  // Set here too: some errors (the router's, a missing Host) are answered before the hook that sets it.
  reply.header('x-request-id', request.id);
  if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
  return reply.code(error.status).type('application/json; charset=utf-8').send(body);
}

/**
 * One error handler for the whole API: contract errors go out as they are,
 * client mistakes Fastify caught are mapped, anything else is a 500 whose
 * internals are logged with the request id and never sent.
 */
export function registerErrorHandling(app: FastifyInstance, limits: { maxBodyBytes: number }): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ServiceError) return sendError(reply, request, error);
    const mapped = fromFastify(error, limits.maxBodyBytes);
    if (mapped) return sendError(reply, request, mapped);
    request.log.error({ err: error }, 'unhandled error');
    return sendError(
      reply,
      request,
      new ServiceError('internal', `internal error; quote request id ${request.id}`),
    );
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(
      reply,
      request,
      new ServiceError('not_found', `no route ${request.method} ${request.url.split('?')[0]}`),
    ),
  );
}
