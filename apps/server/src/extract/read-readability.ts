import { Readability } from '@mozilla/readability';
import { parseHTML } from '../linkedom.js';
import { type ArticleMetadata, articleMetadata } from '../readability.js';
import { type FactNode, newNode } from './page-facts.js';

/**
 * Readability's reading of a page's article metadata: title, byline, site
 * name, excerpt, published time, language. Readability (Mozilla's reader
 * view) weighs JSON-LD, Dublin Core, OpenGraph and Twitter tags and the
 * page's byline markup with rules kept up against real sites. Null when it
 * finds no article or fails.
 */
export function readArticle(html: string): ArticleMetadata | null {
  const wrapped = /<html[\s>]/i.test(html)
    ? html
    : `<!doctype html><html><head></head><body>${html}</body></html>`;
  try {
    const { document } = parseHTML(wrapped);
    const article = new Readability(document as unknown as Document).parse();
    return article ? articleMetadata(article) : null;
  } catch {
    return null; // a document Readability cannot handle
  }
}

/** Readability's reading as a fact node, keyed by what each value is. */
export function readabilityNode(reading: ArticleMetadata): FactNode {
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
