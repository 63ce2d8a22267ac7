import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import type { ApiContext } from './context.js';

/**
 * Sends a response body. With `validateResponses` on (tests), the body is
 * first checked against its strict contract schema, so the server can never
 * drift from what it promises.
 */
export function sendValid<T extends z.ZodType>(
  context: ApiContext,
  reply: FastifyReply,
  schema: T,
  body: z.output<T>,
  status = 200,
): FastifyReply {
  if (context.config.validateResponses) schema.parse(body);
  return reply.code(status).send(body);
}
