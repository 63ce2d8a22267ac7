import { load } from 'cheerio';
import { blockText, collapse } from './text-utils.js';

/** Default budget of page text sent to a model, in characters (about 4k tokens). */
export const DEFAULT_TEXT_BUDGET = 16_000;

/**
 * A compact text of a page for a language model: title and meta
 * description, the JSON-LD blocks (structured data is the densest source of
 * facts), then the visible text line by line (scripts, styles and navigation
 * dropped, blank and repeated lines removed), cut to `budget` characters.
 */
export function pageText(html: string, budget: number = DEFAULT_TEXT_BUDGET): string {
  const $ = load(html, { xml: { xmlMode: false, decodeEntities: true } });
  const parts: string[] = [];
  const title = collapse($('title').first().text());
  if (title) parts.push(`Title: ${title}`);
  const description = collapse($('meta[name="description" i]').attr('content') ?? '');
  if (description) parts.push(`Description: ${description}`);
  $('script[type="application/ld+json" i]').each((_, el) => {
    const raw = $(el).text().trim();
    let compact = raw;
    try {
      compact = JSON.stringify(JSON.parse(raw));
    } catch {
      compact = collapse(raw);
    }
    if (compact) parts.push(`Structured data: ${compact.slice(0, Math.floor(budget / 3))}`);
  });
  $('script, style, noscript, template, svg, iframe, nav').remove();
  const lines: string[] = [];
  for (const line of blockText($('body').get(0) ?? $.root().get(0)).split('\n')) {
    const text = collapse(line);
    if (text && text !== lines[lines.length - 1]) lines.push(text);
  }
  parts.push('', ...lines);
  const text = parts.join('\n');
  return text.length <= budget ? text : `${text.slice(0, budget)}\n[…truncated]`;
}
