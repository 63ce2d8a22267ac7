/**
 * Which of `types` (raw media types a content endpoint can send instead of
 * JSON) the `Accept` header prefers; null when it prefers JSON (or names
 * none of them). The first of `application/json`, any type, or one of
 * `types` in the header wins: `Accept: text/markdown, application/json` is raw.
 *
 * @example
 * ```ts
 * preferredRawType('text/markdown;q=0.9, application/json', ['text/markdown']); // 'text/markdown'
 * ```
 */
export function preferredRawType(accept: string | undefined, types: readonly string[]): string | null {
  if (!accept) return null;
  for (const part of accept.split(',')) {
    const type = part.split(';')[0]!.trim().toLowerCase();
    if (type === 'application/json' || type === '*/*') return null;
    if (types.includes(type)) return type;
  }
  return null;
}
