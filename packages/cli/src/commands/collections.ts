import { LIMITS } from '@webdata/contract';
import type { CommandContext } from '../context.js';
import { firstItems } from '../paging.js';

/** Collections `collections` lists unless `--limit` says otherwise (the same as `runs ls`). */
export const DEFAULT_COLLECTIONS_LIMIT = 20;
/** The most `collections --limit` takes: pages of the API read one after another (the same as `runs ls`). */
export const MAX_COLLECTIONS_LIMIT = 10_000;

/** The first `limit` collections of the key (by name, as the API lists them), read page by page. */
export function firstCollections(context: CommandContext, limit: number) {
  return firstItems(
    (cursor, size) => context.client.collections.list({ limit: size, cursor }, { signal: context.signal }),
    limit,
    LIMITS.maxPageSize,
  );
}

const documents = (count: number | undefined) =>
  count === undefined ? '? documents' : `${count} ${count === 1 ? 'document' : 'documents'}`;

/**
 * `webdata collections`: the key's search collections, a line each (name,
 * documents, last indexed), up to `--limit` read page by page; stderr says
 * when there are more than shown, as `runs ls` does.
 */
export async function listCollections(
  context: CommandContext,
  options: { limit?: number | undefined } = {},
): Promise<number> {
  const limit = options.limit ?? DEFAULT_COLLECTIONS_LIMIT;
  const { data, next_cursor, more } = await firstCollections(context, limit);
  for (const collection of data) {
    context.out.line(
      `${collection.name}  ${documents(collection.document_count)}  ${collection.updated_at ?? ''}`.trimEnd(),
    );
  }
  context.out.document({ data, next_cursor });
  if (more) {
    context.out.note(
      `more collections than the ${data.length} shown (by name): list more with --limit (at most ${MAX_COLLECTIONS_LIMIT})`,
    );
  }
  return 0;
}
