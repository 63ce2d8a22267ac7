/** A page of a cursor-paginated list, as the client reads it from any server. */
export interface ListPage<T> {
  data: T[];
  next_cursor?: string | null | undefined;
}

/** The first items of a list, read page by page, and whether the list goes on past them. */
export interface FirstItems<T> {
  data: T[];
  /** Where the list goes on after `data` (null: it ends there), as the API's own page says it. */
  next_cursor: string | null;
  /** True when the list has more than `data`: the command says so on stderr, rather than cut it silently. */
  more: boolean;
}

/**
 * Reads a list through its cursor until `limit` items or its end, asking each
 * page for no more than still wanted (at most `maxPageSize`), so the last
 * page's `next_cursor` continues exactly after the items kept. One API page
 * (200 runs, 100 hits) is not where a listing should stop: a script asking
 * for 500 runs gets 500, and one that gets fewer than exist is told.
 */
export async function firstItems<T>(
  fetchPage: (cursor: string | undefined, size: number) => Promise<ListPage<T>>,
  limit: number,
  maxPageSize: number,
): Promise<FirstItems<T>> {
  const data: T[] = [];
  const seen = new Set<string>();
  let cursor: string | null = null;
  let cut = false;
  do {
    const wanted = limit - data.length;
    const page = await fetchPage(cursor ?? undefined, Math.min(wanted, maxPageSize));
    // A server that sends more than asked: the rest is not shown, so the list goes on.
    if (page.data.length > wanted) cut = true;
    data.push(...page.data.slice(0, wanted));
    cursor = page.next_cursor ?? null;
    // A cursor sent twice would page forever: stop, and say the list may go on.
    if (cursor !== null && seen.has(cursor)) break;
    if (cursor !== null) seen.add(cursor);
  } while (cursor !== null && data.length < limit);
  return { data, next_cursor: cursor, more: cut || cursor !== null };
}
