/**
 * The HTML parser's first step (HTML Standard, "preprocessing the input
 * stream"): every CR LF pair and every lone CR becomes LF, so no DOM a
 * browser builds holds a CR but one written as `&#13;`. htmlparser2 and
 * linkedom skip that step: a page saved with CR LF line breaks (Git's
 * manual pages) kept a CR in each line of its `<pre>` blocks, in the
 * Markdown, text and HTML we serve. Every parse of a page's HTML goes
 * through this first. A page without a CR is returned as it is.
 */
export function normalizeNewlines(html: string): string {
  return html.includes('\r') ? html.replace(/\r\n?/g, '\n') : html;
}
