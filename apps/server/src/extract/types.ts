import type { ExtractionSchema, PageErrorInfo } from '@webdata/contract';
import type { ArticleMetadata } from '../readability.js';

/** Input of an extraction engine: one fetched page, the request's schema and query. */
export interface ExtractionInput {
  url: string;
  /** The page body (HTML, or text/JSON kept as text). */
  html: string;
  schema?: ExtractionSchema | undefined;
  query?: string | undefined;
  /** Whose request this is: the schema is compiled into that owner's cache ('' when not given). */
  owner?: string | undefined;
  signal?: AbortSignal | undefined;
  /**
   * Readability's reading of the page when the caller already made it (the
   * content converter does); `null` when it was not made (the page was too
   * large for it). Left out, the default engine runs Readability itself.
   */
  article?: ArticleMetadata | null | undefined;
  /** The page's main content as plain text when the caller already has it (for the model engine). */
  mainText?: string | undefined;
}

/** The outcome: an object valid against the schema, or a clear error (never a made-up value). */
export type ExtractionOutcome =
  | {
      ok: true;
      data: Record<string, unknown>;
      /** Which engine produced `data`: the deterministic one, or the model-backed one. */
      engine?: 'default' | 'model' | undefined;
    }
  | { ok: false; error: PageErrorInfo };

export interface ExtractionEngine {
  extract(input: ExtractionInput): Promise<ExtractionOutcome>;
}
