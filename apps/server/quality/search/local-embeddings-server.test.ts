import { ErrorBody } from '@webdata/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cosine, OpenAiEmbedder } from '../../src/search/embeddings.js';
import { LocalEmbeddingsServer, MAX_INPUTS } from './local-embeddings-server.js';
import { loadSentenceEncoder, SENTENCE_ENCODER_MODEL, type SentenceEncoder } from './sentence-encoder.js';

/** A stand-in model: a text's vector is its length and its first character's code. */
const fakeEncoder: SentenceEncoder = {
  model: 'fake-model',
  embed: async (texts) => texts.map((text) => [text.length, text.charCodeAt(0)]),
  tokens: (text) => text.split(/\s+/).length,
};

describe('LocalEmbeddingsServer', () => {
  const server = new LocalEmbeddingsServer(fakeEncoder);
  const post = (body: string, path = '/embeddings') =>
    fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

  beforeAll(async () => {
    await server.start();
  });
  afterAll(async () => {
    await server.stop();
  });

  it('answers a list of inputs with one embedding each, in order, with model and usage', async () => {
    const answer = await post(JSON.stringify({ model: 'fake-model', input: ['ab', 'c d e'] }));
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({
      object: 'list',
      data: [
        { object: 'embedding', index: 0, embedding: [2, 97] },
        { object: 'embedding', index: 1, embedding: [5, 99] },
      ],
      model: 'fake-model',
      usage: { prompt_tokens: 4, total_tokens: 4 },
    });
  });

  it('answers a single string input, with or without the /v1 prefix and model', async () => {
    for (const path of ['/embeddings', '/v1/embeddings']) {
      const answer = await post(JSON.stringify({ input: 'xyz' }), path);
      expect(answer.status).toBe(200);
      expect(((await answer.json()) as { data: unknown[] }).data).toEqual([
        { object: 'embedding', index: 0, embedding: [3, 120] },
      ]);
    }
  });

  it("is what the server's own embeddings client reads", async () => {
    const client = new OpenAiEmbedder({ baseUrl: server.url, model: 'fake-model', timeoutMs: 5000 });
    const [a, b] = await client.embed(['ab', 'ba']);
    expect(a).toHaveLength(2);
    expect(cosine(a!, a!)).toBeCloseTo(1);
    expect(cosine(a!, b!)).toBeLessThan(1);
  });

  it.each([
    ['a body that is not JSON', 'input=hello', /not JSON/],
    ['a body that is not an object', '["hello"]', /JSON object/],
    ['no input', '{}', /`input`/],
    ['an empty list', '{"input":[]}', /`input`/],
    ['a text that is not a string', '{"input":["a",3]}', /input\[1\]/],
    ['an empty text', '{"input":["a","  "]}', /input\[1\]/],
    ['another model', '{"input":"a","model":"text-embedding-3-small"}', /not served here/],
    ['base64 vectors', '{"input":"a","encoding_format":"base64"}', /encoding_format/],
    ['too many texts', JSON.stringify({ input: Array(MAX_INPUTS + 1).fill('a') }), /at most/],
  ])('refuses %s with the one error body (400 invalid_request)', async (_, body, message) => {
    const answer = await post(body);
    expect(answer.status).toBe(400);
    const parsed = ErrorBody.parse(await answer.json());
    expect(parsed.error.code).toBe('invalid_request');
    expect(parsed.error.message).toMatch(message);
  });

  it('answers another path 404 and another method 400, in the same error body', async () => {
    const missing = await post('{"input":"a"}', '/completions');
    expect(missing.status).toBe(404);
    expect(ErrorBody.parse(await missing.json()).error.code).toBe('not_found');
    const get = await fetch(`${server.url}/embeddings`);
    expect(get.status).toBe(400);
    expect(ErrorBody.parse(await get.json()).error.code).toBe('invalid_request');
  });
});

describe('the Universal Sentence Encoder behind it', () => {
  it('puts a question nearer the page that answers it than a page that does not', async () => {
    const server = new LocalEmbeddingsServer(await loadSentenceEncoder());
    await server.start();
    try {
      const client = new OpenAiEmbedder({
        baseUrl: server.url,
        model: SENTENCE_ENCODER_MODEL,
        timeoutMs: 30_000,
      });
      const [question, answer, other] = await client.embed([
        'how do I read a csv file',
        'csv — CSV File Reading and Writing. The csv module implements classes to read and write tabular data in CSV format.',
        'Signal handlers: set handlers for asynchronous events such as a timer going off.',
      ]);
      expect(question).toHaveLength(512);
      expect(cosine(question!, answer!)).toBeGreaterThan(cosine(question!, other!));
    } finally {
      await server.stop();
    }
  }, 60_000);
});
