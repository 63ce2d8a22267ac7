import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ExtractionSchema } from '@webdata/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  compareAnswers,
  type EngineComparison,
  ModelExtractionEngine,
  parseJsonObject,
} from './model-engine.js';

type Mode = 'valid' | 'fenced' | 'garbage' | 'error500' | 'hang' | 'schema-invalid';

interface Received {
  path: string;
  authorization: string | undefined;
  body: {
    model: string;
    messages: { role: string; content: string }[];
    response_format: { type: string; json_schema?: { name: string; schema: unknown; strict: boolean } };
  };
}

let server: Server;
let baseUrl: string;
let mode: Mode = 'valid';
const received: Received[] = [];

function answer(res: ServerResponse, content: string): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content } }],
    }),
  );
}

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        path: req.url ?? '',
        authorization: req.headers.authorization,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Received['body'],
      });
      if (mode === 'hang') return; // never answers: the engine's time-out must fire
      if (mode === 'error500') {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end('{"error":{"message":"overloaded"}}');
      } else if (mode === 'garbage') answer(res, 'Sure! The product is called Kettle and costs about 40.');
      else if (mode === 'schema-invalid') answer(res, '{"name": "Kettle", "price": "forty"}');
      else if (mode === 'fenced')
        answer(res, 'Here you go:\n```json\n{"name": "Kettle (model)", "price": 41}\n```');
      else answer(res, '{"name": "Kettle (model)", "price": 42}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  received.length = 0;
  mode = 'valid';
});

const schema: ExtractionSchema = {
  type: 'object',
  properties: { name: { type: 'string' }, price: { type: 'number' } },
  required: ['name', 'price'],
};
const html = `<html><head><title>Kettle</title></head><body><nav>Home</nav><h1>Kettle</h1><p>Price: €35</p>
  <script>var tracking = 1;</script></body></html>`;
// The answering tests' time-out only guards against a hang: 2 s was passed by the first request
// (module and connection warm-up) on a loaded 2-core machine, which fell back to the default engine.
const engine = (timeoutMs = 20_000) =>
  new ModelExtractionEngine({ baseUrl, model: 'test-model', apiKey: 'sk-test', timeoutMs });
const input = { url: 'https://shop.example/kettle', html, schema, query: 'name and price' };

describe('ModelExtractionEngine', () => {
  it('sends the page, query and schema to the chat-completions endpoint and uses a valid answer', async () => {
    const outcome = await engine().extract(input);
    expect(outcome).toEqual({ ok: true, data: { name: 'Kettle (model)', price: 42 }, engine: 'model' });
    expect(received).toHaveLength(1);
    const request = received[0]!;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.authorization).toBe('Bearer sk-test');
    expect(request.body.model).toBe('test-model');
    expect(request.body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'extraction', schema, strict: false },
    });
    const user = request.body.messages.find((m) => m.role === 'user')?.content ?? '';
    expect(request.body.messages[0]?.role).toBe('system');
    expect(user).toContain('name and price');
    expect(user).toContain('Price: €35');
    expect(user).toContain('"required":["name","price"]');
    expect(user).not.toContain('tracking');
  });

  it("sends the page's evidence (meta tags, Readability's reading) and its main text before the rest", async () => {
    const page = `<html><head><title>Kettle</title><meta property="og:site_name" content="Kettle Shop">
      <meta name="viewport" content="width=device-width"></head><body><main><p>A kettle that boils.</p></main>
      <footer>Last updated on March 5, 2024</footer></body></html>`;
    await engine().extract({
      ...input,
      html: page,
      article: {
        title: 'Kettle',
        byline: 'Jane Doe',
        siteName: 'Kettle Shop',
        excerpt: null,
        publishedTime: null,
        lang: null,
      },
      mainText: 'A kettle that boils.',
    });
    const user = received[0]?.body.messages.find((m) => m.role === 'user')?.content ?? '';
    expect(user).toContain('Meta og:site_name: Kettle Shop');
    expect(user).not.toContain('viewport');
    expect(user).toContain('Article byline: Jane Doe');
    const main = user.indexOf('Main text:\nA kettle that boils.');
    expect(main).toBeGreaterThan(0);
    expect(user.indexOf('Last updated on March 5, 2024')).toBeGreaterThan(main);
    expect(user.split('A kettle that boils.')).toHaveLength(2);
  });

  it("compares a valid answer with the default engine's, property by property", async () => {
    const comparisons: EngineComparison[] = [];
    const model = new ModelExtractionEngine({ baseUrl, model: 'test-model', timeoutMs: 20_000 }, undefined, {
      onComparison: (c) => comparisons.push(c),
    });
    const outcome = await model.extract(input);
    expect(outcome).toMatchObject({ ok: true, engine: 'model' });
    expect(comparisons).toEqual([
      {
        url: input.url,
        agreed: [],
        differed: [
          { property: 'name', model: 'Kettle (model)', default: 'Kettle' },
          { property: 'price', model: 42, default: 35 },
        ],
        modelOnly: [],
        defaultOnly: [],
      },
    ]);
    expect(compareAnswers('u', { a: 'X  y', b: null, c: 1 }, { a: 'x y', b: 2, d: null })).toEqual({
      url: 'u',
      agreed: ['a'],
      differed: [],
      modelOnly: ['c'],
      defaultOnly: ['b'],
    });
  });

  it('accepts JSON inside a ```json fence', async () => {
    mode = 'fenced';
    const fenced = await engine().extract(input);
    expect(fenced).toEqual({ ok: true, data: { name: 'Kettle (model)', price: 41 }, engine: 'model' });
  });

  it.each<[Mode, string]>([
    ['garbage', 'not a JSON object'],
    ['error500', 'HTTP 500'],
    ['schema-invalid', '/price must be number'],
  ])('falls back to the default engine when the model answers %s', async (m, reason) => {
    mode = m;
    const reasons: string[] = [];
    const model = new ModelExtractionEngine({ baseUrl, model: 'test-model', timeoutMs: 20_000 }, undefined, {
      onFallback: (r) => reasons.push(r),
    });
    const outcome = await model.extract(input);
    expect(outcome).toEqual({ ok: true, data: { name: 'Kettle', price: 35 }, engine: 'default' });
    expect(reasons[0]).toContain(reason);
    expect(received[0]?.authorization).toBeUndefined();
  });

  it('falls back when the endpoint does not answer in time', async () => {
    mode = 'hang';
    const outcome = await engine(300).extract(input);
    expect(outcome).toEqual({ ok: true, data: { name: 'Kettle', price: 35 }, engine: 'default' });
    expect(received).toHaveLength(1);
  });

  it('asks for a JSON object when there is no schema', async () => {
    const outcome = await engine().extract({ url: input.url, html, query: 'the price' });
    expect(outcome.ok).toBe(true);
    expect(received[0]?.body.response_format).toEqual({ type: 'json_object' });
  });

  it('stops without falling back when the request is cancelled', async () => {
    mode = 'hang';
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const outcome = await engine(5000).extract({ ...input, signal: controller.signal });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'cancelled' } });
  });
});

describe('parseJsonObject', () => {
  it('reads plain, fenced and embedded JSON objects and rejects anything else', () => {
    expect(parseJsonObject('{"a":1}')).toEqual({ a: 1 });
    expect(parseJsonObject('```json\n{"a":2}\n```')).toEqual({ a: 2 });
    expect(parseJsonObject('Answer: {"a":3} — done')).toEqual({ a: 3 });
    expect(() => parseJsonObject('[1,2]')).toThrow(/not a JSON object/);
    expect(() => parseJsonObject('no json')).toThrow(/not a JSON object/);
  });
});
