/** What a client accepts a content endpoint's answer as: one of its raw media types, or its JSON. */
export const JSON_ANSWER = 'json';

/**
 * The answers `accept` asks a content endpoint for, best first: raw media
 * types among `types` (the text it can send instead of JSON) and
 * {@link JSON_ANSWER} (for `application/json`, `application/*` or any type).
 * Preference is by q-value, then by order in the header; `q=0` is refused.
 * Without a header, or one naming none of them, JSON. The route serves the
 * first it holds: a browser's header (`text/html` first, any type at q=0.8)
 * on a page stored only as Markdown gets the JSON answer it also accepts.
 *
 * @example
 * ```ts
 * acceptedAnswers('text/markdown;q=0.5, application/json', ['text/markdown']); // ['json', 'text/markdown']
 * acceptedAnswers('text/html, application/*;q=0.8', ['text/html']); // ['text/html', 'json']
 * ```
 */
export function acceptedAnswers(accept: string | undefined, types: readonly string[]): string[] {
  if (!accept) return [JSON_ANSWER];
  const ranked: { answer: string; q: number; order: number }[] = [];
  for (const [order, part] of accept.split(',').entries()) {
    const [range, ...parameters] = part.split(';');
    const type = range!.trim().toLowerCase();
    const qParameter = parameters.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith('q='));
    const q = qParameter === undefined ? 1 : Number(qParameter.slice(2));
    const answer =
      type === 'application/json' || type === 'application/*' || type === '*/*'
        ? JSON_ANSWER
        : types.includes(type)
          ? type
          : null;
    // A malformed q counts as 1, as the type alone would.
    if (answer !== null) ranked.push({ answer, q: Number.isNaN(q) ? 1 : q, order });
  }
  ranked.sort((a, b) => b.q - a.q || a.order - b.order);
  const answers: string[] = [];
  for (const { answer, q } of ranked) if (q > 0 && !answers.includes(answer)) answers.push(answer);
  // Refusing everything it names (or naming nothing it has) is not a refusal of JSON: the default.
  return answers.length > 0 ? answers : [JSON_ANSWER];
}

/** The raw media type to answer with when the format is given (`?format=`): the most preferred, or null for JSON. */
export function preferredRawType(accept: string | undefined, types: readonly string[]): string | null {
  const [first] = acceptedAnswers(accept, types);
  return first === JSON_ANSWER ? null : (first ?? null);
}
