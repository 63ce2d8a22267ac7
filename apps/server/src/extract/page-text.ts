import { load } from 'cheerio';
import type { ArticleMetadata } from '../readability.js';
import { blockText, collapse } from './text-utils.js';

/** Default budget of page text sent to a model, in characters (about 4k tokens). */
export const DEFAULT_TEXT_BUDGET = 16_000;

/** What the caller already read from the page: Readability's reading and the main content's text. */
export interface PageReading {
  article?: ArticleMetadata | null | undefined;
  mainText?: string | undefined;
}

/** Meta tags worth a model's attention: link-preview and citation metadata, authors, dates. */
const EVIDENCE_META =
  /^(?:og:|article:|product:|book:|twitter:(?:title|description|creator|label|data)|dc\.|dcterms\.|citation_|author$|description$|keywords$|application-name$)/i;
/** At most this many meta tags, each cut to this many characters. */
const META_LIMIT = { count: 40, length: 300 };

/**
 * A compact text of a page for a language model: the page's evidence first
 * (its title, its meta tags, Readability's reading of the article, the
 * JSON-LD blocks: the densest statements of facts), then its main text when
 * the caller has it (the converter's reading of the main content), else the
 * visible text line by line (scripts, styles and navigation dropped, blank
 * and repeated lines removed), cut to `budget` characters.
 */
export function pageText(
  html: string,
  budget: number = DEFAULT_TEXT_BUDGET,
  reading: PageReading = {},
): string {
  const $ = load(html, { xml: { xmlMode: false, decodeEntities: true } });
  const parts: string[] = [];
  const title = collapse($('title').first().text());
  if (title) parts.push(`Title: ${title}`);
  let metaCount = 0;
  $('meta[content]').each((_, el) => {
    const name = $(el).attr('property') ?? $(el).attr('name') ?? '';
    const content = collapse($(el).attr('content') ?? '');
    if (!content || !EVIDENCE_META.test(name) || metaCount >= META_LIMIT.count) return;
    metaCount++;
    parts.push(`Meta ${name}: ${content.slice(0, META_LIMIT.length)}`);
  });
  const article = reading.article;
  if (article) {
    const fields: [string, string | null | undefined][] = [
      ['title', article.title],
      ['byline', article.byline],
      ['site name', article.siteName],
      ['published', article.publishedTime],
    ];
    for (const [label, value] of fields)
      if (value?.trim()) parts.push(`Article ${label}: ${collapse(value)}`);
  }
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
  const linesOf = (text: string) => {
    const lines: string[] = [];
    for (const line of text.split('\n')) {
      const t = collapse(line);
      if (t && t !== lines[lines.length - 1]) lines.push(t);
    }
    return lines;
  };
  const visible = linesOf(blockText($('body').get(0) ?? $.root().get(0)));
  const main = linesOf(reading.mainText ?? '');
  if (main.length === 0) parts.push('', ...visible);
  else {
    // The main content first; then what the page states around it (sidebars, footers: dates, links).
    const inMain = new Set(main);
    parts.push('', 'Main text:', ...main, '', 'Around it:', ...visible.filter((l) => !inMain.has(l)));
  }
  const text = parts.join('\n');
  return text.length <= budget ? text : `${text.slice(0, budget)}\n[…truncated]`;
}
