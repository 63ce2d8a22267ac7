/**
 * A real embeddings server for the quality harness: OpenAI's `POST
 * /embeddings` protocol on 127.0.0.1, answered by a {@link SentenceEncoder}
 * (the Universal Sentence Encoder, `sentence-encoder.ts`), so the server's
 * optional semantic path (`WEBDATA_EMBEDDINGS_BASE_URL`, src/search/embeddings.ts)
 * is measured with a model of meaning, not a stub.
 *
 * `npx tsx quality/search/local-embeddings-server.ts` from apps/server starts
 * one and prints `embeddings server at <base URL>`; SIGTERM stops it.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { ERROR_STATUS, type ErrorBody, type ErrorCode } from '@webdata/contract';
import { loadSentenceEncoder, SENTENCE_ENCODER_MODEL, type SentenceEncoder } from './sentence-encoder.js';

/** Inputs of one request at most (OpenAI's limit). */
export const MAX_INPUTS = 2048;
/** Bytes of one request body at most. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** A request the server will not answer with embeddings: the contract's error code and why. */
class RequestProblem extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** The texts of a `POST /embeddings` body (`input`: one string or a list of strings). */
export function inputsOf(body: unknown, model: string): string[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new RequestProblem('invalid_request', 'the body must be a JSON object with `input`');
  const { input, model: asked, encoding_format: format } = body as Record<string, unknown>;
  if (asked !== undefined && asked !== model)
    throw new RequestProblem(
      'invalid_request',
      `model ${JSON.stringify(asked)} is not served here (only ${model})`,
    );
  if (format !== undefined && format !== 'float')
    throw new RequestProblem('invalid_request', 'encoding_format: only "float" is answered');
  const inputs = typeof input === 'string' ? [input] : input;
  if (!Array.isArray(inputs) || inputs.length === 0)
    throw new RequestProblem('invalid_request', '`input` must be a string or a non-empty list of strings');
  if (inputs.length > MAX_INPUTS)
    throw new RequestProblem(
      'invalid_request',
      `\`input\` holds ${inputs.length} texts; at most ${MAX_INPUTS}`,
    );
  inputs.forEach((text, i) => {
    if (typeof text !== 'string' || text.trim() === '')
      throw new RequestProblem('invalid_request', `input[${i}] must be a non-empty string`);
  });
  return inputs as string[];
}

/**
 * OpenAI's embeddings protocol on 127.0.0.1 (an ephemeral port unless one is
 * given): `POST /embeddings` with `{ input, model? }` answers `{ object:
 * 'list', data: [{ object: 'embedding', index, embedding }], model, usage }`;
 * anything else answers the contract's one error body (`{ error: { code,
 * message, request_id } }`). Requests are embedded one after another (the
 * model uses one core; interleaving them would only delay each).
 */
export class LocalEmbeddingsServer {
  private readonly server: Server;
  private queue: Promise<unknown> = Promise.resolve();
  /** The base URL to give `WEBDATA_EMBEDDINGS_BASE_URL` (`/embeddings` is appended to it). */
  url = '';

  constructor(private readonly encoder: SentenceEncoder) {
    this.server = createServer((request, response) => {
      void this.answer(request).then(
        (body) => reply(response, 200, body),
        (error: unknown) => {
          const problem =
            error instanceof RequestProblem
              ? error
              : new RequestProblem('internal', 'the model failed to embed');
          if (!(error instanceof RequestProblem)) console.error(error);
          const body: ErrorBody = {
            error: { code: problem.code, message: problem.message, request_id: `req_${randomUUID()}` },
          };
          reply(response, ERROR_STATUS[problem.code], body);
        },
      );
    });
  }

  private async answer(request: IncomingMessage): Promise<unknown> {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== '/embeddings' && path !== '/v1/embeddings')
      throw new RequestProblem('not_found', `no ${path} here: POST /embeddings`);
    if (request.method !== 'POST') throw new RequestProblem('invalid_request', 'POST /embeddings only');
    const raw = await bodyOf(request);
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw new RequestProblem('invalid_request', 'the body is not JSON');
    }
    const inputs = inputsOf(parsed, this.encoder.model);
    const run = this.queue.then(() => this.encoder.embed(inputs));
    this.queue = run.catch(() => {});
    const vectors = await run;
    const tokens = inputs.reduce((sum, text) => sum + this.encoder.tokens(text), 0);
    return {
      object: 'list',
      data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })),
      model: this.encoder.model,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    };
  }

  /** Listens on 127.0.0.1; resolves with the base URL. */
  async start(port = 0): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function reply(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of request) {
    size += (part as Buffer).length;
    if (size > MAX_BODY_BYTES)
      throw new RequestProblem('payload_too_large', `the body is over ${MAX_BODY_BYTES} bytes`);
    parts.push(part as Buffer);
  }
  return Buffer.concat(parts).toString('utf8');
}

/** The `WEBDATA_EMBEDDINGS_*` environment pointing the webdata server at a local embeddings server. */
export function embeddingsEnv(url: string): NodeJS.ProcessEnv {
  return {
    WEBDATA_EMBEDDINGS_BASE_URL: url,
    WEBDATA_EMBEDDINGS_MODEL: SENTENCE_ENCODER_MODEL,
    // A crawl queues many pages' chunks behind one core: a page may wait for the ones before it.
    WEBDATA_EMBEDDINGS_TIMEOUT_MS: '600000',
  };
}

/** Starts a local embeddings server with the Universal Sentence Encoder loaded. */
export async function startLocalEmbeddings(): Promise<LocalEmbeddingsServer> {
  const server = new LocalEmbeddingsServer(await loadSentenceEncoder());
  await server.start();
  return server;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const server = await startLocalEmbeddings();
  console.log(`embeddings server at ${server.url}`);
  process.once('SIGTERM', () => void server.stop().then(() => process.exit(0)));
}
