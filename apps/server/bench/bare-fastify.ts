/**
 * The baseline of the GET /runs/{id} benchmark: a bare Fastify route that
 * answers a small JSON object, in its own process like the real server.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
const run = { id: 'run_bench', status: 'running', type: 'crawl', urls: ['http://127.0.0.1/'] };
app.get('/api/v1/runs/:runId', async () => run);
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
console.log(`listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
