import type { Readability } from '@mozilla/readability';

/**
 * Above this many elements, or this deep, Readability is not run. Over
 * linkedom it costs roughly 20–40 ms per 1,000 elements on this project's
 * machines (its scoring re-reads text and re-queries subtrees), and its cost
 * explodes on deep nesting (ancestor walks and subtree text reads per node:
 * 100 nested `<div>`s take over a second, 1,000 over 30 s). A typical
 * article page is well below both; real pages nest 15–60 deep, deeper ones
 * are broken or hostile. The content converter and the extraction engine
 * share these bounds, so a page is read by Readability in both or in neither.
 */
export const READABILITY_LIMITS = { maxElements: 3_000, maxDepth: 80 } as const;

/**
 * Readability's metadata of a page: what its `parse()` answers besides the
 * content. The content converter reads it while picking the main content and
 * hands it to extraction, which weighs it as evidence.
 */
export interface ArticleMetadata {
  title: string | null;
  byline: string | null;
  siteName: string | null;
  excerpt: string | null;
  publishedTime: string | null;
  lang: string | null;
}

/** The metadata of Readability's parsed article, each field null when Readability found none. */
export function articleMetadata(article: NonNullable<ReturnType<Readability['parse']>>): ArticleMetadata {
  return {
    title: article.title ?? null,
    byline: article.byline ?? null,
    siteName: article.siteName ?? null,
    excerpt: article.excerpt ?? null,
    publishedTime: article.publishedTime ?? null,
    lang: article.lang ?? null,
  };
}
