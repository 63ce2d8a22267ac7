import { Readability } from '@mozilla/readability';
import { load } from 'cheerio';
import { parseHTML } from 'linkedom';

/** The three article fields the readability corpora are scored on. */
export interface ArticleFields {
  title: string | null;
  byline: string | null;
  siteName: string | null;
}

/**
 * The plain baseline a user would write first: the document `<title>`,
 * `<meta name="author">` and `<meta property="og:site_name">`, as they are.
 */
export function naiveMetaTags(html: string): ArticleFields {
  const $ = load(html);
  const text = (value: string | undefined) => (value?.trim() ? value.trim() : null);
  return {
    title: text($('title').first().text()),
    byline: text($('meta[name="author" i]').first().attr('content')),
    siteName: text($('meta[property="og:site_name" i]').first().attr('content')),
  };
}

/**
 * Readability 0.6 (the library that wrote the corpus's reference values) on
 * a linkedom document, in process: the best any extractor can agree with the
 * references, and the time a page costs it.
 */
export function readabilityOnLinkedom(html: string): ArticleFields {
  const { document } = parseHTML(html);
  let article: ReturnType<Readability['parse']> = null;
  try {
    article = new Readability(document as unknown as Document).parse();
  } catch {
    article = null;
  }
  return {
    title: article?.title ?? null,
    byline: article?.byline ?? null,
    siteName: article?.siteName ?? null,
  };
}
