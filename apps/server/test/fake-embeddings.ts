import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Words the fake model embeds as one concept (one dimension), so a test can
 * find a page by a word it does not contain: a stand-in for a real model's
 * sense of meaning. Every other word lands on a dimension of its own hash.
 */
const CONCEPTS: readonly (readonly string[])[] = [
  ['car', 'cars', 'automobile', 'automobiles', 'vehicle', 'vehicles', 'sedan'],
  ['dog', 'dogs', 'puppy', 'puppies', 'canine'],
  ['ocean', 'oceans', 'sea', 'seas', 'marine'],
];
const DIMENSIONS = 1024;

/** The fake model's embedding of a text: a bag of concepts and hashed words, not normalised. */
export function fakeEmbedding(text: string): number[] {
  const vector = new Array<number>(DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    const concept = CONCEPTS.findIndex((group) => group.includes(word));
    if (concept >= 0) vector[concept]! += 1;
    else {
      let hash = 7;
      for (const c of word) hash = (hash * 31 + c.charCodeAt(0)) >>> 0;
      vector[CONCEPTS.length + (hash % (DIMENSIONS - CONCEPTS.length))]! += 1;
    }
  }
  return vector;
}

/** A request the fake endpoint received. */
export interface EmbeddingsRequest {
  path: string;
  authorization: string | undefined;
  model: string;
  input: string[];
}

/**
 * A real HTTP server on 127.0.0.1 speaking the OpenAI embeddings protocol
 * (`POST /v1/embeddings {model, input}` → `{object: 'list', data: [{object:
 * 'embedding', index, embedding}], model, usage}`), with {@link fakeEmbedding}
 * as its model. `failing = true` makes it answer 500.
 */
export class FakeEmbeddingsServer {
  readonly received: EmbeddingsRequest[] = [];
  failing = false;
  private readonly server: Server = createServer((req, res) => this.answer(req, res));

  /** The base URL to configure (`…/v1`). */
  url = '';

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private answer(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
        model?: string;
        input?: unknown;
      };
      const input = typeof body.input === 'string' ? [body.input] : (body.input as string[]);
      this.received.push({
        path: req.url ?? '',
        authorization: req.headers.authorization,
        model: body.model ?? '',
        input,
      });
      if (this.failing || req.method !== 'POST' || req.url !== '/v1/embeddings') {
        res.writeHead(this.failing ? 500 : 404, { 'content-type': 'application/json' });
        res.end('{"error":{"message":"unavailable"}}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          object: 'list',
          // Answered in reverse order: clients must place vectors by `index`.
          data: input
            .map((text, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(text) }))
            .reverse(),
          model: body.model,
          usage: { prompt_tokens: 0, total_tokens: 0 },
        }),
      );
    });
  }
}
