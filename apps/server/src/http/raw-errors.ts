import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ErrorBody } from '@webdata/contract';
import type { FastifyInstance } from 'fastify';

/**
 * The server's fixed HTTP limits below the API (the time-outs for a request
 * to arrive are settings: `headersTimeoutMs`, `requestTimeoutMs`). Each
 * refusal that can be answered is answered with the one error body.
 */
export const HTTP_LIMITS = {
  /** How often Node checks the request time-outs. */
  timeoutCheckMs: 1_000,
  /** Request line and headers together (Node's default; 431 past it). */
  maxHeaderBytes: 16 * 1024,
  /** Open connections; past it new ones are closed at once, unanswered. */
  maxConnections: 1024,
} as const;

/** The status and message for an error Node's HTTP parser raised before any route could run. */
function describeClientError(error: NodeJS.ErrnoException): { status: number; message: string } {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, message: 'the request did not arrive in time' };
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        message: `the request line and headers are larger than ${HTTP_LIMITS.maxHeaderBytes / 1024} KiB`,
      };
    default:
      return { status: 400, message: `malformed HTTP request${error.code ? ` (${error.code})` : ''}` };
  }
}

/** The one error body as the raw bytes of a complete HTTP/1.1 response that closes the connection. */
export function rawErrorResponse(status: number, message: string, requestId: string): string {
  const body: ErrorBody = { error: { code: 'invalid_request', message, request_id: requestId } };
  const text = JSON.stringify(body);
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(text)}`,
    `x-request-id: ${requestId}`,
    'connection: close',
    '',
    text,
  ].join('\r\n');
}

/** Answers a socket with the one error body (400 `invalid_request`) and closes it once written. */
export function refuseSocket(socket: Socket, message: string, requestId: string): void {
  if (socket.writable) socket.write(rawErrorResponse(400, message, requestId));
  socket.destroySoon();
}

/**
 * Fastify's `clientErrorHandler`: answers what Node's HTTP parser refuses
 * (malformed request lines and headers, headers over the limit, a request
 * that does not arrive in time) with the one error body and an
 * `x-request-id`, where Fastify would send a body of its own.
 */
export function clientErrorHandler(
  nextRequestId: () => string,
): (this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket) => void {
  return function answerClientError(this: FastifyInstance, error, socket) {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    // Node's own rule: once a response has begun on this socket, no other may be written.
    const inProgress = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (socket.writable && !inProgress?.headersSent) {
      const { status, message } = describeClientError(error);
      const requestId = nextRequestId();
      this.log.debug({ err: error, requestId }, 'client error');
      socket.write(rawErrorResponse(status, message, requestId));
    }
    socket.destroySoon(); // once the answer is written
  };
}
