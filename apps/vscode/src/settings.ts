/**
 * The settings section of this extension (`webdata.*`). Apart from the
 * connection so that what activation loads (the CodeLens) does not load it.
 */
export const SETTINGS = 'webdata';

/** The service's address when `webdata.baseUrl` is not set: where `pnpm start` listens. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:8787';

const LOCAL_HOST = /^(?:localhost|127\.|10\.|192\.168\.|172\.(?:1[6-9]|2\d|3[01])\.|\[::1\])/i;

/**
 * The service's address to use for what `webdata.baseUrl` holds: as it is when it names a scheme,
 * else as a browser's address bar takes it, `http://` before a local address (`127.0.0.1:8787`,
 * `localhost:8787`: `pnpm start` serves plain HTTP there) and `https://` before any other. A
 * scheme-less address left the view saying only that the runs "could not be listed" (the log:
 * `Invalid URL`), and `localhost:8787` parsed as a URL of the scheme `localhost:`.
 *
 * @example
 * ```ts
 * serviceAddress('127.0.0.1:8787'); // 'http://127.0.0.1:8787'
 * serviceAddress('webdata.example.com'); // 'https://webdata.example.com'
 * serviceAddress(''); // DEFAULT_BASE_URL
 * ```
 */
export function serviceAddress(configured: string | undefined): string {
  const address = configured?.trim() ?? '';
  if (address === '') return DEFAULT_BASE_URL;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(address)) return address;
  return `${LOCAL_HOST.test(address) ? 'http' : 'https'}://${address.replace(/^\/+/, '')}`;
}
