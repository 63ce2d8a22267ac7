import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { type FactNode, newNode } from './page-facts.js';
import type { ArticleReading } from './types.js';

/**
 * Above this many elements, or this deep, Readability is not run (its cost
 * grows fast with size and explodes with nesting; the content converter
 * uses the same bounds). The page's other evidence still answers.
 */
export const READABILITY_LIMITS = { maxElements: 3_000, maxDepth: 80 };

/**
 * Readability's reading of a page's article metadata: title, byline, site
 * name, excerpt, published time, language. Readability (Mozilla's reader
 * view) weighs JSON-LD, Dublin Core, OpenGraph and Twitter tags and the
 * page's byline markup with rules kept up against real sites. Null when it
 * finds no article or fails.
 */
export function readArticle(html: string): ArticleReading | null {
  const wrapped = /<html[\s>]/i.test(html)
    ? html
    : `<!doctype html><html><head></head><body>${html}</body></html>`;
  try {
    const { document } = parseHTML(wrapped);
    const article = new Readability(document as unknown as Document).parse();
    if (!article) return null;
    return {
      title: article.title ?? null,
      byline: article.byline ?? null,
      siteName: article.siteName ?? null,
      excerpt: article.excerpt ?? null,
      publishedTime: article.publishedTime ?? null,
      lang: article.lang ?? null,
    };
  } catch {
    return null; // a document Readability cannot handle
  }
}

/** Readability's reading as a fact node, keyed by what each value is. */
export function readabilityNode(reading: ArticleReading): FactNode {
  const node = newNode('readability', 'readability', ['Article']);
  const add = (key: string, value: string | null | undefined) => {
    const text = value?.trim();
    if (text) node.entries.push({ key, value: text });
  };
  add('title', reading.title);
  add('byline', reading.byline);
  add('siteName', reading.siteName);
  add('description', reading.excerpt);
  add('datePublished', reading.publishedTime);
  add('language', reading.lang);
  return node;
}
