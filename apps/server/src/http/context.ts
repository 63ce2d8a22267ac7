import type { ServerConfig } from '../config.js';
import type { RunEvents } from '../engine/run-events.js';
import type { RunService } from '../engine/run-service.js';
import type { LoopTurns } from '../loop-turns.js';
import type { UrlSigner } from '../screenshots/signed-url.js';
import type { EmbedderLike } from '../search/embeddings.js';
import type { Store } from '../store/store.js';

/** What the routes use: the layers below them, never SQL or workers directly. */
export interface ApiContext {
  config: ServerConfig;
  store: Store;
  runs: RunService;
  events: RunEvents;
  signer: UrlSigner;
  /** The base URL clients reach this server at (signed URLs, the served OpenAPI document's server). */
  baseUrl(): string;
  /** Aborted when the server starts shutting down: long polls answer at once. */
  closing: AbortSignal;
  /** The server's turns of the event loop: a large body is parsed and validated in a turn of its own. */
  turns: LoopTurns;
  /** Embeds search queries when semantic search is configured. */
  embedder?: EmbedderLike | undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The owner of the request's API key (set by the auth hook). */
    owner: string;
    /** The id of the request's API key, safe to log. */
    keyId: string;
  }
  interface FastifyContextConfig {
    /** Routes that need no API key (signed URLs). */
    public?: boolean;
  }
}
