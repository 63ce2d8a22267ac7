/**
 * The settings section of this extension (`webdata.*`). Apart from the
 * connection so that what activation loads (the CodeLens) does not load it.
 */
export const SETTINGS = 'webdata';

/** The service's address when `webdata.baseUrl` is not set: where `pnpm start` listens. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:8787';
