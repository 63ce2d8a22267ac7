import { NotFoundError } from '@webdata/core';
import type { CommandContext } from '../context.js';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * A snippet (HTML: page text escaped, matches in `<mark>`) as terminal text:
 * matches in **bold**, and the escaped characters back as themselves, so a
 * quoted word reads `"index"`, not `&quot;index&quot;`.
 */
export function snippetText(snippet: string): string {
  return snippet
    .replace(/<\/?mark>/g, '**')
    .replace(/&(?:#(\d+)|#x([0-9a-f]+)|(amp|lt|gt|quot|apos));/gi, (entity, decimal, hex, name) => {
      if (name) return ENTITIES[name.toLowerCase()] ?? entity;
      const code = decimal ? Number(decimal) : Number.parseInt(hex, 16);
      return code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    });
}

/** `webdata search QUERY…`: hits best first, with their snippets (matches in **bold**). */
export async function searchCommand(
  context: CommandContext,
  words: string[],
  options: { collection?: string | undefined; limit?: number | undefined },
): Promise<number> {
  const request = { query: words.join(' '), collection: options.collection, limit: options.limit };
  context.request = request;
  let answer: Awaited<ReturnType<typeof context.client.search>>;
  try {
    answer = await context.client.search(request);
  } catch (error) {
    if (error instanceof NotFoundError) await nameCollections(context, options.collection ?? 'default');
    throw error;
  }
  for (const hit of answer.data) {
    context.out.line(`${(hit.score ?? 0).toFixed(3)}  ${hit.url ?? ''}  ${hit.title ?? ''}`.trimEnd());
    if (hit.snippet) context.out.line(`       ${snippetText(hit.snippet)}`);
  }
  context.out.document(answer);
  return 0;
}

/** The key's collections, for a search of one that does not exist (a name mistyped, or nothing indexed yet). */
async function nameCollections(context: CommandContext, asked: string): Promise<void> {
  const names = await context.client.collections
    .list({ limit: 100 }, { signal: context.signal })
    .then((page) => page.data.map((collection) => collection.name))
    .catch(() => undefined);
  if (names === undefined) return;
  context.out.note(
    names.length === 0
      ? `no collection "${asked}": nothing is indexed yet (a crawl indexes its pages: webdata crawl --collection ${asked} URL…)`
      : `no collection "${asked}"; this key's collections: ${names.join(', ')} (webdata collections lists them)`,
  );
}

const documents = (count: number | undefined) =>
  count === undefined ? '? documents' : `${count} ${count === 1 ? 'document' : 'documents'}`;

/** `webdata collections`: the key's search collections, a line each (name, documents, last indexed). */
export async function listCollections(context: CommandContext): Promise<number> {
  const page = await context.client.collections.list({ limit: 100 }, { signal: context.signal });
  for (const collection of page.data) {
    context.out.line(
      `${collection.name}  ${documents(collection.document_count)}  ${collection.updated_at ?? ''}`.trimEnd(),
    );
  }
  context.out.document(page);
  return 0;
}
