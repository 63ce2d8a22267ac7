import type { CommandContext } from '../context.js';

/** `webdata search QUERY…`: hits best first, with their snippets (matches in **bold**). */
export async function searchCommand(
  context: CommandContext,
  words: string[],
  options: { collection?: string | undefined; limit?: number | undefined },
): Promise<number> {
  const answer = await context.client.search({
    query: words.join(' '),
    collection: options.collection,
    limit: options.limit,
  });
  for (const hit of answer.data) {
    context.out.line(`${(hit.score ?? 0).toFixed(3)}  ${hit.url ?? ''}  ${hit.title ?? ''}`.trimEnd());
    if (hit.snippet) context.out.line(`       ${hit.snippet.replace(/<\/?mark>/g, '**')}`);
  }
  context.out.document(answer);
  return 0;
}
