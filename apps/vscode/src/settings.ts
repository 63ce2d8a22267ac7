/**
 * The settings section of this extension (`webdata.*`). Apart from the
 * connection so that what activation loads (the CodeLens) does not load it.
 */
export const SETTINGS = 'webdata';

/**
 * The setting of the service's address, `webdata.serviceAddress`: VS Code's Settings editor names a
 * setting after its id's last segment, title-cased, and nothing else (an extension's setting has no
 * title of its own), so `webdata.baseUrl` showed as "Base Url" ("Webdata: Base Url" in a search).
 */
export const ADDRESS_SETTING = 'serviceAddress';

/** The address's former setting, `webdata.baseUrl`: read while {@link ADDRESS_SETTING} is not set (it is in users' settings files). */
export const FORMER_ADDRESS_SETTING = 'baseUrl';

/** The part of `vscode.WorkspaceConfiguration` that says where a setting is set. */
export interface SettingsReader {
  inspect<T>(key: string): { globalValue?: T; workspaceValue?: T; workspaceFolderValue?: T } | undefined;
}

/**
 * What the address settings hold: the Service Address where it is set (a folder's over the
 * workspace's over the user's), else the former `webdata.baseUrl` where that is set, else nothing
 * (the default address).
 *
 * @example
 * ```ts
 * configuredAddress(vscode.workspace.getConfiguration('webdata')); // 'http://10.0.0.7:9000'
 * ```
 */
export function configuredAddress(settings: SettingsReader): string | undefined {
  const set = (key: string) => {
    const where = settings.inspect<string>(key);
    return where?.workspaceFolderValue ?? where?.workspaceValue ?? where?.globalValue;
  };
  return set(ADDRESS_SETTING) ?? set(FORMER_ADDRESS_SETTING);
}

/** The service's address when no address is set: where `pnpm start` listens. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:8787';

const LOCAL_HOST = /^(?:localhost|127\.|10\.|192\.168\.|172\.(?:1[6-9]|2\d|3[01])\.|\[::1\])/i;

/**
 * The service's address to use for what the Service Address setting holds: as it is when it names a scheme,
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
