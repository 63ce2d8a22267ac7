import scalarApiReference from '@scalar/fastify-api-reference';
import type { FastifyInstance } from 'fastify';

/** Where the API reference page is served; `/docs` redirects to `/docs/`. */
export const API_REFERENCE_PATH = '/docs';

/**
 * `GET /docs`: an API reference page rendered in the browser from
 * `openApiPath` by Scalar's viewer. Its script is served from the installed
 * `@scalar/fastify-api-reference` package (no CDN), with every option that
 * would call out to Scalar's services (fonts, telemetry, the AI agent)
 * turned off, so the page works on a closed network and tells no one it was
 * opened. Public, like the OpenAPI document it shows.
 */
export function registerApiReferencePage(app: FastifyInstance, openApiPath: string): void {
  void app.register(async (docs) => {
    // The plugin declares its own routes; mark them public as ours are (`config.public`).
    docs.addHook('onRoute', (route) => {
      route.config = { ...(route.config as object), public: true };
    });
    await docs.register(scalarApiReference, {
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
  });
}
