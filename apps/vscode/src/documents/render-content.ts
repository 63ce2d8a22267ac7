/**
 * A result's content as document text: strings as they are, a list of
 * links one per line, extracted data as indented JSON.
 *
 * @example
 * ```ts
 * renderContent({ name: 'Lamp' }); // '{\n  "name": "Lamp"\n}\n'
 * ```
 */
export function renderContent(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content) && content.every((item) => typeof item === 'string'))
    return `${content.join('\n')}\n`;
  return `${JSON.stringify(content ?? null, null, 2)}\n`;
}
