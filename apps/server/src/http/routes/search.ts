import type { FastifyInstance } from 'fastify';
import { notFound } from '../../errors.js';
import { EmbeddingsError } from '../../search/embeddings.js';
import { decodeCursor, encodeCursor } from '../../store/cursor.js';
import type { ApiContext } from '../context.js';
import { declareRoute } from '../contract-route.js';

/**
 * The query's embedding when semantic search is configured; null without it or
 * when the endpoint fails (the search is then lexical only, never an error).
 */
async function queryVector(context: ApiContext, query: string): Promise<Float32Array | null> {
  if (!context.embedder) return null;
  try {
    return (await context.embedder.embed([query]))[0] ?? null;
  } catch (error) {
    if (error instanceof EmbeddingsError) return null;
    throw error;
  }
}

/** Search and collections. */
export function registerSearchRoutes(app: FastifyInstance, context: ApiContext): void {
  declareRoute(app, context, 'search', async ({ body, request, send }) => {
    // Collections exist by their documents: one this key never indexed into (or whose last run was
    // deleted) is unknown, which a typo in its name should hear rather than get no hits.
    if (!(await context.store.hasCollection(request.owner, body.collection))) throw notFound('collection');
    return send(
      await context.store.search.search(request.owner, body, await queryVector(context, body.query)),
    );
  });

  declareRoute(app, context, 'listCollections', async ({ query, request, send }) => {
    const all = await context.store.search.collections(request.owner);
    const start = query.cursor ? decodeCursor('collections', query.cursor) : 0;
    const data = all.slice(start, start + query.limit);
    const next = start + query.limit < all.length ? encodeCursor('collections', start + query.limit) : null;
    return send({ data, next_cursor: next });
  });
}
