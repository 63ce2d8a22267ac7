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
  const answer = await context.client.search(request);
  for (const hit of answer.data) {
    context.out.line(`${(hit.score ?? 0).toFixed(3)}  ${hit.url ?? ''}  ${hit.title ?? ''}`.trimEnd());
    if (hit.snippet) context.out.line(`       ${snippetText(hit.snippet)}`);
  }
  context.out.document(answer);
  return 0;
}
