/**
 * Removes the characters the snippet markers use (and other C0 controls but
 * tab and line breaks) from text about to be indexed, so a page cannot forge
 * a `<mark>`. A module of its own (no imports): a converter thread blanks a
 * page's text with it before building the text's word index, as the store
 * does before storing the text.
 */
export function stripMarkerCharacters(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, ' ');
}
