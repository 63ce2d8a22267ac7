import type { ConvertedPage } from './types.js';

/** Absolute http(s) URLs written out in text (stops at whitespace, quotes and brackets). */
const URL_IN_TEXT = /\bhttps?:\/\/[^\s"'<>()[\]{}`]+/g;
/** Markdown ATX headings of level 1–3. */
const ATX_HEADING = /^ {0,3}(#{1,3})[ \t]+(.+?)[ \t]*#*[ \t]*$/gm;

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** URLs found in text, trailing sentence punctuation dropped, fragments removed, deduplicated. */
function linksInText(text: string): string[] {
  const seen = new Set<string>();
  for (const match of text.matchAll(URL_IN_TEXT)) {
    const candidate = match[0].replace(/[.,;:!?]+$/, '');
    try {
      const url = new URL(candidate);
      url.hash = '';
      seen.add(url.href);
    } catch {
      // not a URL after all
    }
  }
  return [...seen];
}

/** A fence longer than any run of backticks inside the text. */
function fenceFor(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}

/**
 * Converts a text or JSON page (see `FetchedPage.kind`) to the API's formats.
 * Text is kept as it is (Markdown and plain text alike; a leading `# heading`
 * gives the title). JSON is pretty-printed, in a fenced `json` block for
 * Markdown; invalid JSON is kept verbatim.
 */
export function convertText(body: string, kind: 'text' | 'json'): ConvertedPage {
  if (kind === 'json') {
    let pretty = body.trim();
    try {
      pretty = JSON.stringify(JSON.parse(body), null, 2);
    } catch {
      // served as JSON but is not: shown as it came
    }
    const fence = fenceFor(pretty);
    return {
      title: null,
      markdown: `${fence}json\n${pretty}\n${fence}`,
      html: `<pre><code class="language-json">${escapeHtml(pretty)}</code></pre>`,
      text: pretty,
      links: linksInText(pretty),
      canonicalUrl: null,
      headings: [],
      article: null,
    };
  }
  const headings = [...body.matchAll(ATX_HEADING)].map((m) => m[2]!.trim()).filter(Boolean);
  const firstH1 = /^ {0,3}#[ \t]+(.+?)[ \t]*#*[ \t]*$/m.exec(body)?.[1]?.trim();
  return {
    title: firstH1 || null,
    markdown: body,
    html: `<pre>${escapeHtml(body)}</pre>`,
    text: body,
    links: linksInText(body),
    canonicalUrl: null,
    headings,
    article: null,
  };
}
