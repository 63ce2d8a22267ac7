import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';

/** Where the API reference page is served; `/docs` redirects to `/docs/`. */
export const API_REFERENCE_PATH = '/docs';

/** Headers of the viewer's answer that the outer server sets itself for the body it sends. */
const HOP_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'date']);

/**
 * `GET /docs`: an API reference page rendered in the browser from
 * `openApiPath` by Scalar's viewer. Its script is served from the installed
 * `@scalar/fastify-api-reference` package (no CDN), with every option that
 * would call out to Scalar's services (fonts, telemetry, the AI agent)
 * turned off, so the page works on a closed network and tells no one it was
 * opened. Public, like the OpenAPI document it shows.
 *
 * The package (a 4.4 MB module) is loaded on the first request under
 * `/docs`, not at start: importing it cost 700–870 ms of CPU, about a third
 * of a server's start, for a page most servers never show. Its plugin runs in
 * a Fastify instance of its own, which the routes here forward to in process
 * (`inject`); a path it does not know gets this server's own 404 body.
 */
export function registerApiReferencePage(app: FastifyInstance, openApiPath: string): void {
  let viewer: Promise<FastifyInstance> | undefined;
  const loadViewer = async (): Promise<FastifyInstance> => {
    const { default: scalarApiReference } = await import('@scalar/fastify-api-reference');
    const inner = Fastify({ logger: false });
    await inner.register(scalarApiReference, {
      routePrefix: API_REFERENCE_PATH,
      configuration: {
        url: openApiPath,
        pageTitle: 'webdata API reference',
        withDefaultFonts: false,
        telemetry: false,
        agent: { disabled: true },
        mcp: { disabled: true },
        // The client button leads to Scalar's hosted client.
        hideClientButton: true,
        defaultOpenAllTags: true,
      },
    });
    await inner.ready();
    return inner;
  };
  const forward = async (request: FastifyRequest, reply: FastifyReply) => {
    viewer ??= loadViewer().catch((error: unknown) => {
      viewer = undefined; // tried again on the next request
      throw error;
    });
    const answer = await (await viewer).inject({
      method: request.method as 'GET' | 'HEAD',
      url: request.url,
      headers: request.headers,
    });
    if (answer.statusCode === 404) return reply.callNotFound();
    for (const [name, value] of Object.entries(answer.headers))
      if (value !== undefined && !HOP_HEADERS.has(name.toLowerCase())) reply.header(name, value);
    return reply.code(answer.statusCode).send(answer.rawPayload);
  };
  // The viewer's instance holds no socket, but its plugins' close hooks run with ours.
  app.addHook('onClose', async () => {
    const loaded = viewer;
    viewer = undefined;
    if (loaded) await (await loaded.catch(() => undefined))?.close();
  });
  app.get(API_REFERENCE_PATH, { config: { public: true } }, forward);
  app.get(`${API_REFERENCE_PATH}/*`, { config: { public: true } }, forward);
}
