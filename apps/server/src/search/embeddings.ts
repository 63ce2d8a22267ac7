/** Where an OpenAI-compatible embeddings endpoint is (`WEBDATA_EMBEDDINGS_*`). */
export interface EmbeddingsSettings {
  /** Base URL of the API (`https://api.openai.com/v1`); `/embeddings` is appended. */
  baseUrl: string;
  model: string;
  apiKey?: string | undefined;
  timeoutMs: number;
}

/** A passage of a document and its embedding, stored with the document. */
export interface EmbeddedChunk {
  text: string;
  vector: Float32Array;
}

/** Turns texts into vectors (one per text, same order). */
export interface EmbedderLike {
  embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

/** The embeddings endpoint failed or answered something that is not embeddings. */
export class EmbeddingsError extends Error {
  override readonly name = 'EmbeddingsError';
}

/** Characters of a chunk: a few paragraphs, well under any embedding model's input limit. */
export const CHUNK_CHARACTERS = 1_200;
/** Chunks embedded per document: the start of a long page says what it is about; the cost stays bounded. */
export const MAX_CHUNKS = 8;

/**
 * Client of an OpenAI-compatible `POST {baseUrl}/embeddings` endpoint
 * (`{ model, input: [...] }` → `{ data: [{ index, embedding }] }`), with a
 * bearer key when one is set. Every vector is normalised to length 1, so a
 * dot product is their cosine.
 */
export class OpenAiEmbedder implements EmbedderLike {
  constructor(private readonly settings: EmbeddingsSettings) {}

  /** Throws {@link EmbeddingsError} when the endpoint fails, times out or answers badly. */
  async embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
    };
    if (this.settings.apiKey) headers.authorization = `Bearer ${this.settings.apiKey}`;
    const signals = [AbortSignal.timeout(this.settings.timeoutMs), ...(signal ? [signal] : [])];
    let response: Response;
    try {
      response = await fetch(`${this.settings.baseUrl.replace(/\/+$/, '')}/embeddings`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ model: this.settings.model, input: texts }),
        signal: AbortSignal.any(signals),
      });
    } catch (error) {
      signal?.throwIfAborted();
      throw new EmbeddingsError(`embeddings request failed: ${String(error)}`);
    }
    const body = await response.text().catch(() => '');
    if (!response.ok) throw new EmbeddingsError(`the embeddings endpoint answered HTTP ${response.status}`);
    return vectorsOf(body, texts.length);
  }
}

/** The normalised vectors of an embeddings answer, in input order. */
function vectorsOf(body: string, count: number): Float32Array[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new EmbeddingsError('the embeddings endpoint answered something other than JSON');
  }
  const data = (parsed as { data?: unknown }).data;
  if (!Array.isArray(data) || data.length !== count)
    throw new EmbeddingsError(
      `the embeddings endpoint answered ${Array.isArray(data) ? data.length : 'no'} vectors for ${count} inputs`,
    );
  const vectors: Float32Array[] = new Array(count);
  let dimensions = -1;
  for (const [position, item] of data.entries()) {
    const { index, embedding } = (item ?? {}) as { index?: unknown; embedding?: unknown };
    const at = typeof index === 'number' ? index : position;
    if (!Array.isArray(embedding) || embedding.length === 0 || !embedding.every(Number.isFinite))
      throw new EmbeddingsError('an embedding is not a list of numbers');
    if (dimensions !== -1 && embedding.length !== dimensions)
      throw new EmbeddingsError('the embeddings differ in length');
    if (!Number.isInteger(at) || at < 0 || at >= count || vectors[at] !== undefined)
      throw new EmbeddingsError('the embeddings answer has a bad index');
    dimensions = embedding.length;
    vectors[at] = normalised(Float32Array.from(embedding as number[]));
  }
  return vectors;
}

function normalised(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const x of vector) sum += x * x;
  const length = Math.sqrt(sum);
  if (length > 0) for (let i = 0; i < vector.length; i += 1) vector[i] = (vector[i] ?? 0) / length;
  return vector;
}

/**
 * A page's text cut into chunks to embed: paragraphs packed up to
 * {@link CHUNK_CHARACTERS} (a longer paragraph is cut), each chunk led by the
 * page's title so a passage keeps its subject; at most {@link MAX_CHUNKS}.
 */
export function chunksOf(title: string | null, body: string): string[] {
  const lead = title ? `${title}\n` : '';
  const room = Math.max(200, CHUNK_CHARACTERS - lead.length);
  const chunks: string[] = [];
  let current = '';
  const flush = () => {
    if (current.trim() !== '') chunks.push(`${lead}${current.trim()}`);
    current = '';
  };
  for (const paragraph of body.split(/\n\s*\n/)) {
    for (let start = 0; start < paragraph.length; start += room) {
      const piece = paragraph.slice(start, start + room);
      if (current.length + piece.length + 2 > room) flush();
      current += `${piece}\n\n`;
      if (chunks.length >= MAX_CHUNKS) return chunks;
    }
  }
  flush();
  if (chunks.length === 0 && lead !== '') chunks.push(lead.trim());
  return chunks.slice(0, MAX_CHUNKS);
}

/** Dot product of two normalised vectors (their cosine); 0 when their lengths differ. */
export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0;
  let sum = 0;
  for (let i = 0; i < a.length; i += 1) sum += (a[i] ?? 0) * (b[i] ?? 0);
  return sum;
}

/** A vector as stored (little-endian float32 bytes) and back. */
export function vectorToBytes(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

export function vectorFromBytes(bytes: Uint8Array): Float32Array {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new Float32Array(copy.buffer);
}

/**
 * How a plain question's lexical ranking and its nearest chunks' ranking are
 * fused (reciprocal rank fusion: a page's score is the sum over the lists of
 * `weight / (k + rank)`, the lexical list's weight being 1).
 */
export interface SemanticFusion {
  /** RRF's constant: larger flattens the difference between the first ranks and the next. */
  k: number;
  /** Weight of the semantic list against the lexical one's 1. */
  weight: number;
  /** Pages of the semantic list at most (its best); the search's depth when larger. */
  depth: number;
  /** A page whose best chunk's cosine with the query is below this is not in the semantic list. */
  minSimilarity: number;
  /**
   * When finite, meaning only re-orders the lexical ranking's best `rerankDepth` pages (the
   * semantic list holds them alone) and adds no page the words did not find.
   */
  rerankDepth: number;
}

/** RRF as its paper gives it (k = 60, both lists weighted alike), every page pointing the query's way. */
export const DEFAULT_SEMANTIC_FUSION: SemanticFusion = {
  k: 60,
  weight: 1,
  depth: Number.POSITIVE_INFINITY,
  minSimilarity: 0,
  rerankDepth: Number.POSITIVE_INFINITY,
};

/**
 * Reciprocal rank fusion: each list gives its documents `weight / (k + rank)`
 * (rank from 1; default k 60, every weight 1), summed over the lists; best
 * first, ties in first-seen order.
 */
export function fuseByReciprocalRank(
  lists: readonly (readonly number[])[],
  options: { k?: number; weights?: readonly number[] } = {},
): { key: number; score: number }[] {
  const k = options.k ?? DEFAULT_SEMANTIC_FUSION.k;
  const scores = new Map<number, number>();
  lists.forEach((list, l) => {
    const weight = options.weights?.[l] ?? 1;
    list.forEach((key, i) => {
      scores.set(key, (scores.get(key) ?? 0) + weight / (k + i + 1));
    });
  });
  return [...scores.entries()]
    .map(([key, score], order) => ({ key, score, order }))
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .map(({ key, score }) => ({ key, score }));
}

/**
 * The lexical ranking (page keys, best first) fused with the nearest pages
 * (best first, as {@link nearestDocuments} gives them) as `fusion` says.
 */
export function fuseWithNearest(
  lexical: readonly number[],
  nearest: readonly { key: number; similarity: number }[],
  fusion: SemanticFusion = DEFAULT_SEMANTIC_FUSION,
): { key: number; score: number }[] {
  const head = Number.isFinite(fusion.rerankDepth) ? new Set(lexical.slice(0, fusion.rerankDepth)) : null;
  const semantic = nearest
    .filter((n) => n.similarity >= fusion.minSimilarity && (head === null || head.has(n.key)))
    .slice(0, fusion.depth)
    .map((n) => n.key);
  return fuseByReciprocalRank([lexical, semantic], { k: fusion.k, weights: [1, fusion.weight] });
}

/**
 * The documents whose best chunk is closest to the query vector, best first
 * (at most `limit`), with that chunk. Only documents pointing the query's way
 * (cosine above 0) count: an unrelated page is no hit, however few pages there are.
 */
export function nearestDocuments(
  query: Float32Array,
  chunks: Iterable<{ key: number; text: string; vector: Float32Array }>,
  limit: number,
): { key: number; similarity: number; text: string }[] {
  const best = new Map<number, { similarity: number; text: string }>();
  for (const chunk of chunks) {
    const similarity = cosine(query, chunk.vector);
    const seen = best.get(chunk.key);
    if (seen === undefined || similarity > seen.similarity)
      best.set(chunk.key, { similarity, text: chunk.text });
  }
  return [...best.entries()]
    .map(([key, value]) => ({ key, ...value }))
    .filter((n) => n.similarity > 0)
    .sort((a, b) => b.similarity - a.similarity || a.key - b.key)
    .slice(0, limit);
}
