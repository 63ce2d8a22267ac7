import { CollectionPage, PageQuery, SearchAnswer, SearchRequest } from '@webdata/contract';
import type { FastifyInstance } from 'fastify';
import { decodeCursor, encodeCursor } from '../../store/cursor.js';
import type { ApiContext } from '../context.js';
import { sendValid } from '../send.js';
import { parseRequest } from '../validate.js';

/** Search and collections. */
export function registerSearchRoutes(app: FastifyInstance, context: ApiContext): void {
  app.post('/api/v1/search', async (request, reply) => {
    const params = parseRequest(SearchRequest, request.body, 'body');
    return sendValid(context, reply, SearchAnswer, await context.store.search.search(request.owner, params));
  });

  app.get('/api/v1/collections', async (request, reply) => {
    const query = parseRequest(PageQuery, request.query, 'query');
    const all = await context.store.search.collections(request.owner);
    const start = query.cursor ? decodeCursor('collections', query.cursor) : 0;
    const data = all.slice(start, start + query.limit);
    const next = start + query.limit < all.length ? encodeCursor('collections', start + query.limit) : null;
    return sendValid(context, reply, CollectionPage, { data, next_cursor: next });
  });
}
