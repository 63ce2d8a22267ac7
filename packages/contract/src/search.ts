import { z } from 'zod';
import { CollectionName, HttpUrl, Timestamp } from './common.js';
import { LIMITS } from './limits.js';
import { page, pageLenient } from './pagination.js';

/**
 * `POST /api/v1/search`: ranked search over one collection.
 *
 * @example
 * ```ts
 * SearchRequest.parse({ query: 'configure retries', collection: 'docs', filters: { site: 'docs.example' } });
 * ```
 */
export const SearchRequest = z
  .strictObject({
    query: z.string().trim().min(1, 'query must not be empty').max(LIMITS.maxSearchQueryLength),
    collection: CollectionName.default('default'),
    limit: z.number().int().min(1).max(LIMITS.maxSearchLimit).default(LIMITS.defaultSearchLimit),
    cursor: z.string().min(1).max(512).optional(),
    filters: z
      .strictObject({
        url_prefix: HttpUrl.optional(),
        site: z
          .string()
          .min(1)
          .max(253)
          .regex(/^[A-Za-z0-9.-]+(:\d+)?$/, 'must be a host name such as docs.example.org')
          .optional(),
      })
      .optional(),
  })
  .meta({ id: 'SearchRequest' });
export type SearchRequest = z.input<typeof SearchRequest>;
export type SearchParams = z.output<typeof SearchRequest>;

/** One ranked hit. `snippet` marks the matched words with `<mark>`. */
export const SearchHit = z
  .strictObject({
    document_id: z.string().regex(/^doc_[A-Za-z0-9_-]{1,64}$/),
    url: HttpUrl,
    title: z.string().nullable(),
    snippet: z.string(),
    score: z.number(),
    collection: CollectionName,
    indexed_at: Timestamp,
  })
  .meta({ id: 'SearchHit' });
export type SearchHit = z.infer<typeof SearchHit>;

/** The answer of a search: hits best first and a cursor to the next page. */
export const SearchAnswer = page(SearchHit).meta({ id: 'SearchAnswer' });
export type SearchAnswer = z.infer<typeof SearchAnswer>;

export const SearchHitLenient = z.looseObject({
  document_id: z.string().optional(),
  url: z.string(),
  title: z.string().nullable().optional(),
  snippet: z.string().optional(),
  score: z.number().optional(),
  collection: z.string().optional(),
  indexed_at: z.string().optional(),
});
export const SearchAnswerLenient = pageLenient(SearchHitLenient);
export type SearchAnswerLenient = z.infer<typeof SearchAnswerLenient>;

/** A collection of indexed documents and how many it holds. */
export const Collection = z
  .strictObject({
    name: CollectionName,
    document_count: z.number().int().min(0),
    updated_at: Timestamp.nullable(),
  })
  .meta({ id: 'Collection' });
export type Collection = z.infer<typeof Collection>;

export const CollectionPage = page(Collection).meta({ id: 'CollectionPage' });
export type CollectionPage = z.infer<typeof CollectionPage>;

export const CollectionLenient = z.looseObject({
  name: z.string(),
  document_count: z.number().optional(),
  updated_at: z.string().nullable().optional(),
});
export const CollectionPageLenient = pageLenient(CollectionLenient);
