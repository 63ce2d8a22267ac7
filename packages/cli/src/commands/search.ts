import { LIMITS } from '@webdata/contract';
import { NotFoundError, type SearchHit, snippetParts } from '@webdata/core';
import type { CommandContext } from '../context.js';
import { type FirstItems, firstItems } from '../paging.js';
import { firstCollections } from './collections.js';

/**
 * A snippet (HTML: page text escaped, matches in `<mark>`) as terminal text:
 * matches in **bold**, and the escaped characters back as themselves, so a
 * quoted word reads `"index"`, not `&quot;index&quot;`.
 */
export function terminalSnippet(snippet: string): string {
  return snippetParts(snippet)
    .map((part) => (part.match ? `**${part.text}**` : part.text))
    .join('');
}

/** Hits `search` prints unless `--limit` says otherwise. */
export const DEFAULT_SEARCH_LIMIT = 10;
/** The most `search --limit` takes: answers of the API (100 hits each) read one after another. */
export const MAX_SEARCH_LIMIT = 1_000;

/**
 * `webdata search QUERY…`: hits best first, with their snippets (matches in
 * **bold**), up to `--limit` read page by page; stderr says when there are more.
 */
export async function searchCommand(
  context: CommandContext,
  words: string[],
  options: { collection?: string | undefined; limit?: number | undefined },
): Promise<number> {
  const limit = options.limit ?? DEFAULT_SEARCH_LIMIT;
  const request = {
    query: words.join(' '),
    collection: options.collection,
    limit: Math.min(limit, LIMITS.maxSearchLimit),
  };
  context.request = request;
  let answer: FirstItems<SearchHit>;
  try {
    answer = await firstItems(
      (cursor, size) =>
        context.client.search({ ...request, limit: size, cursor }, { signal: context.signal }),
      limit,
      LIMITS.maxSearchLimit,
    );
  } catch (error) {
    if (error instanceof NotFoundError) await nameCollections(context, options.collection ?? 'default');
    throw error;
  }
  for (const hit of answer.data) {
    context.out.line(`${(hit.score ?? 0).toFixed(3)}  ${hit.url ?? ''}  ${hit.title ?? ''}`.trimEnd());
    if (hit.snippet) context.out.line(`       ${terminalSnippet(hit.snippet)}`);
  }
  context.out.document({ data: answer.data, next_cursor: answer.next_cursor });
  if (answer.more) {
    context.out.note(
      `more hits than the ${answer.data.length} shown: see more with --limit (at most ${MAX_SEARCH_LIMIT})`,
    );
  }
  return 0;
}

/** The key's collections, for a search of one that does not exist (a name mistyped, or nothing indexed yet). */
async function nameCollections(context: CommandContext, asked: string): Promise<void> {
  const names = await firstCollections(context, Number.POSITIVE_INFINITY)
    .then((page) => page.data.map((collection) => collection.name))
    .catch(() => undefined);
  if (names === undefined) return;
  context.out.note(
    names.length === 0
      ? `no collection "${asked}": nothing is indexed yet (a crawl indexes its pages: webdata crawl --collection ${asked} URL…)`
      : `no collection "${asked}"; this key's collections: ${names.join(', ')} (webdata collections lists them)`,
  );
}
