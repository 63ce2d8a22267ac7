import { type Endpoint, type EndpointOf, endpointOf, type OperationId } from '@webdata/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { z } from 'zod';
import type { ApiContext } from './context.js';
import { sendValid } from './send.js';
import { parseRequest } from './validate.js';

/** What an endpoint's schema for one request part parses to; `undefined` where it has no such part. */
type PartOf<E, K extends 'pathParams' | 'query' | 'body'> = E extends {
  readonly [P in K]: infer S extends z.ZodType;
}
  ? z.output<S>
  : undefined;

/** Sends the endpoint's success: its status, the body checked against its schema (see `sendValid`). */
type SendOf<E> = E extends { readonly success: { readonly schema: infer S extends z.ZodType } }
  ? (body: z.output<S>) => FastifyReply
  : never;

/** A request to one endpoint, its parts parsed by the endpoint's own schemas. */
export interface EndpointCall<E> {
  path: PartOf<E, 'pathParams'>;
  query: PartOf<E, 'query'>;
  body: PartOf<E, 'body'>;
  /** Answers with the endpoint's success status and schema. */
  send: SendOf<E>;
  request: FastifyRequest;
  reply: FastifyReply;
}

/**
 * Fastify's method, URL and auth for an endpoint of the contract: `{param}`
 * becomes `:param`, and an endpoint that needs no key is public.
 */
export function routeOf(endpoint: Endpoint): Pick<RouteOptions, 'method' | 'url' | 'config'> {
  return {
    method: endpoint.method.toUpperCase() as 'GET' | 'POST' | 'DELETE',
    url: endpoint.path.replace(/\{(\w+)\}/g, ':$1'),
    config: { public: !endpoint.authenticated },
  };
}

/**
 * Declares the route of one endpoint of the contract's `ENDPOINTS` table:
 * its method, path and authentication come from the table, and its path
 * parameters, query and body are parsed with the table's schemas (a bad one
 * is a 400 `invalid_request`) before `handler` runs, so a route cannot drift
 * from the contract.
 *
 * @example
 * ```ts
 * declareRoute(app, context, 'cancelRun', async ({ path, request, send }) =>
 *   send(await context.runs.cancel(request.owner, path.runId)),
 * );
 * ```
 */
export function declareRoute<Id extends OperationId>(
  app: FastifyInstance,
  context: ApiContext,
  operationId: Id,
  handler: (call: EndpointCall<EndpointOf<Id>>) => Promise<FastifyReply>,
): void {
  const endpoint: Endpoint = endpointOf(operationId);
  const { success } = endpoint;
  app.route({
    ...routeOf(endpoint),
    handler: (request, reply) => {
      const call = {
        path: endpoint.pathParams && parseRequest(endpoint.pathParams, request.params, 'path'),
        query: endpoint.query && parseRequest(endpoint.query, request.query, 'query'),
        body: endpoint.body && parseRequest(endpoint.body, request.body, 'body'),
        send: (body: unknown) => sendValid(context, reply, success.schema!, body, success.status),
        request,
        reply,
      };
      // The parts were parsed with this very entry's schemas, which is what the call's type says.
      return handler(call as EndpointCall<EndpointOf<Id>>);
    },
  });
}
