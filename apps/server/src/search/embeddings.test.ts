import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeEmbeddingsServer, fakeEmbedding } from '../../test/fake-embeddings.js';
import {
  CHUNK_CHARACTERS,
  chunksOf,
  cosine,
  DEFAULT_SEMANTIC_FUSION,
  EmbeddingsError,
  fuseByReciprocalRank,
  fuseWithNearest,
  MAX_CHUNKS,
  nearestDocuments,
  OpenAiEmbedder,
  vectorFromBytes,
  vectorToBytes,
} from './embeddings.js';

const fake = new FakeEmbeddingsServer();
let embedder: OpenAiEmbedder;

beforeAll(async () => {
  await fake.start();
  embedder = new OpenAiEmbedder({
    baseUrl: `${fake.url}/`,
    model: 'fake-embed-1',
    apiKey: 'sk-test',
    timeoutMs: 5000,
  });
});
afterAll(() => fake.stop());
beforeEach(() => {
  fake.received.length = 0;
  fake.failing = false;
});

describe('OpenAiEmbedder', () => {
  it('posts {model, input} with the bearer key and places the vectors by index, normalised', async () => {
    const vectors = await embedder.embed(['a red car', 'the deep sea']);
    expect(fake.received).toEqual([
      {
        path: '/v1/embeddings',
        authorization: 'Bearer sk-test',
        model: 'fake-embed-1',
        input: ['a red car', 'the deep sea'],
      },
    ]);
    expect(vectors).toHaveLength(2);
    for (const vector of vectors) expect(cosine(vector, vector)).toBeCloseTo(1, 5);
    // The fake answered in reverse order; each vector is still its own text's.
    const expected = fakeEmbedding('a red car');
    const norm = Math.hypot(...expected);
    expect([...vectors[0]!].map((x) => x * norm)).toEqual(expected.map((x) => expect.closeTo(x, 4)));
    expect(cosine(vectors[0]!, (await embedder.embed(['automobile']))[0]!)).toBeGreaterThan(0.4);
  });

  it('throws EmbeddingsError when the endpoint fails or is unreachable, and asks nothing for no text', async () => {
    fake.failing = true;
    await expect(embedder.embed(['x'])).rejects.toBeInstanceOf(EmbeddingsError);
    const nowhere = new OpenAiEmbedder({ baseUrl: `${fake.url}/nothing-here`, model: 'm', timeoutMs: 5000 });
    fake.failing = false;
    await expect(nowhere.embed(['x'])).rejects.toThrow(/HTTP 404/);
    const closed = new OpenAiEmbedder({ baseUrl: 'http://127.0.0.1:1/v1', model: 'm', timeoutMs: 5000 });
    await expect(closed.embed(['x'])).rejects.toBeInstanceOf(EmbeddingsError);
    fake.received.length = 0;
    expect(await embedder.embed([])).toEqual([]);
    expect(fake.received).toEqual([]);
  });
});

describe('chunks, vectors and fusion', () => {
  it('cuts a page into title-led chunks of bounded size and count', () => {
    const body = Array.from({ length: 40 }, (_, i) => `Paragraph ${i} ${'word '.repeat(60)}`).join('\n\n');
    const chunks = chunksOf('The title', body);
    expect(chunks).toHaveLength(MAX_CHUNKS);
    for (const chunk of chunks) {
      expect(chunk.startsWith('The title\n')).toBe(true);
      expect(chunk.length).toBeLessThanOrEqual(CHUNK_CHARACTERS + 2);
    }
    expect(chunks[0]).toContain('Paragraph 0');
    expect(chunksOf(null, 'short page')).toEqual(['short page']);
    expect(chunksOf('Only a title', '')).toEqual(['Only a title']);
  });

  it('stores a vector as bytes and reads it back', () => {
    const vector = Float32Array.from([0.5, -0.25, 1e-7]);
    expect([...vectorFromBytes(vectorToBytes(vector))]).toEqual([...vector]);
  });

  it('fuses rankings by reciprocal rank and finds the nearest documents by their best chunk', () => {
    // 1 is second in both lists and beats 2 and 3, first in one list each.
    expect(
      fuseByReciprocalRank([
        [2, 1, 4],
        [3, 1],
      ]).map((f) => f.key),
    ).toEqual([1, 2, 3, 4]);
    const v = (...xs: number[]) => Float32Array.from(xs);
    const nearest = nearestDocuments(
      v(1, 0),
      [
        { key: 7, text: 'far', vector: v(0, 1) },
        { key: 7, text: 'near', vector: v(0.8, 0.6) },
        { key: 9, text: 'nearer', vector: v(1, 0) },
      ],
      5,
    );
    expect(nearest.map((n) => [n.key, n.text])).toEqual([
      [9, 'nearer'],
      [7, 'near'],
    ]);
  });

  it('fuses the lexical ranking with the nearest pages as the fusion options say', () => {
    const lexical = [1, 2, 3, 4];
    const nearest = [
      { key: 5, similarity: 0.9 },
      { key: 4, similarity: 0.6 },
      { key: 2, similarity: 0.2 },
    ];
    const keys = (fusion: Partial<typeof DEFAULT_SEMANTIC_FUSION>) =>
      fuseWithNearest(lexical, nearest, { ...DEFAULT_SEMANTIC_FUSION, ...fusion }).map((f) => f.key);
    // Alike weights (RRF as in its paper): 2 (2nd and 3rd) leads; 5, first by meaning only, beats 3.
    expect(keys({})).toEqual([2, 4, 1, 5, 3]);
    // A light semantic list only breaks near-ties of the lexical order.
    expect(keys({ weight: 0.01 })).toEqual([1, 2, 3, 4, 5]);
    // A cosine floor and a short semantic list keep the far pages out of it.
    expect(keys({ minSimilarity: 0.5 })).toEqual([4, 1, 5, 2, 3]);
    expect(keys({ depth: 1 })).toEqual([1, 5, 2, 3, 4]);
    // Re-ordering the lexical top 2 only: 5 is not added, 4 (third by meaning among none of them) stays last.
    expect(keys({ rerankDepth: 2 })).toEqual([2, 1, 3, 4]);
    // A smaller k sets the first ranks further apart.
    expect(fuseByReciprocalRank([[1, 2], [2]], { k: 1 }).map((f) => f.key)).toEqual([2, 1]);
    expect(fuseByReciprocalRank([[1, 2], [2]], { weights: [1, 0] }).map((f) => f.key)).toEqual([1, 2]);
  });
});
