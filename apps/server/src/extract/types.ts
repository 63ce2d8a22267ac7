import type { ExtractionSchema } from '@webdata/contract';

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
}

/** The outcome: an object valid against the schema, or a clear error (never a made-up value). */
export type ExtractionOutcome =
  | {
      ok: true;
      data: Record<string, unknown>;
      /** Which engine produced `data`: the deterministic one, or the model-backed one. */
      engine?: 'default' | 'model' | undefined;
    }
  | { ok: false; error: { code: string; message: string } };

export interface ExtractionEngine {
  extract(input: ExtractionInput): Promise<ExtractionOutcome>;
}
